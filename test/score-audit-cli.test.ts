/** `npm run score:audit` (scripts/score-audit.ts): its flags are checked before any work, a mistake exits 2. */
import { spawnSync } from 'node:child_process'
import { test } from 'uvu'
import * as assert from 'uvu/assert'

const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/score-audit.ts', ...args], { encoding: 'utf8' })

test('cli :: --help prints the usage; a flag mistake exits 2 with its message and the usage, before any work', () => {
  const help = run('--help')
  assert.is(help.status, 0)
  assert.match(help.stdout, /usage: npm run score:audit/)
  for (const [args, message] of [
    [['--bogus'], /Unknown option '--bogus'/],
    [['--inert', '0'], /--inert must be a positive whole number, got 0/],
    [['--scale', 'huge'], /--scale must be one of tiny, demo, large/],
    [['--raw', '/nonexistent'], /--raw must be a generated raw folder/],
    [['--date', '2026-02-30'], /--date must be a real date YYYY-MM-DD, got 2026-02-30/],
  ] as const) {
    const cli = run(...args)
    assert.is(cli.status, 2, args.join(' '))
    assert.match(cli.stderr, message)
    assert.match(cli.stderr, /usage: npm run score:audit/)
    assert.not.match(cli.stderr, /\n\s+at /)
  }
})

test.run()
