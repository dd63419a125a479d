/**
 * `npm run serve` (scripts/serve.ts) as a supervisor runs it: through a path holding a space and a symlink, the
 * command runs (here it fails to start, naming the reason, for want of a snapshot) instead of exiting 0 unseen.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'

test('serve :: run through a path with a space and a symlink, the command runs', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'serve cli '))
  try {
    fs.symlinkSync(process.cwd(), path.join(root, 'the repo'))
    const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'the repo', 'scripts', 'serve.ts')], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, SNAPSHOTS_DIR: path.join(root, 'none'), DATA_DIR: path.join(root, 'data'), PORT: '0', LOG_LEVEL: 'info' },
    })
    assert.is(run.status, 1, run.stderr)
    assert.match(run.stderr, /"event":"server\.failed"/)
    assert.match(run.stderr, /no snapshot at .*none\/current: run npm run build first/)
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
})

test.run()
