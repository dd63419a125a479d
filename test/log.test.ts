/**
 * The shared logger (`log/`): JSON lines on stderr (`level`, `time`, `event`, fields), with API keys redacted in every
 * form a request can carry, and progress reported as log lines when stderr is not a terminal.
 */
import * as assert from 'uvu/assert'
import { suite } from 'uvu'
import { spawnSync } from 'node:child_process'
import { flushFoldedLogs, foldedLog, isApiKeyParamName, log, redact } from '../log/logger.ts'
import { progress } from '../log/progress.ts'
import { stderrOf } from './_capture.ts'

const test = suite('log')

const KEY = 'ask_' + 'Ab3_-x'.repeat(7) + 'z'

test('redact :: a key in every form a URL can carry it, and the line stays valid JSON', async () => {
  const urls = [
    `/api/v1/get_followers?username=a&api_key=${KEY}`,
    `/api/v1/get_followers?api%5Fkey=${KEY}&username=a`,
    `/api/v1/get_followers?%61pi_key=${KEY.replace('_', '%5F')}&username=a`,
    `/api/v1/get_followers?API_KEY=${KEY}`,
    `/api/v1/get_followers?username=${KEY}`,
    `/api/v1/get_followers?username=a&u=%61${KEY.slice(1)}`,
    `/api/v1/get_followers?username=a&u=%61%73%6b%5F${KEY.slice(4)}`,
  ]
  for (const url of urls) {
    const line = await stderrOf(() => log.error('request.unexpected_error', { url, note: `key ${KEY} in text` }))
    assert.not.ok(line.includes(KEY), url)
    assert.not.ok(line.includes(KEY.slice(4, 30)), url)
    const parsed = JSON.parse(line)
    assert.match(parsed.url, /^\/api\/v1\/get_followers\?/)
    assert.match(parsed.url, /\[redacted\]/)
    assert.is(parsed.note, 'key [redacted] in text')
  }
  // values that are not keys of ours, sent as the credential: redacted by the parameter's name, to their very end
  const secrets = [
    ['/x?api%5Fkey=secretvalue1&page=2', '/x?api%5Fkey=[redacted]&page=2'],
    ['/x?page=2&API_KEY=secretvalue2', '/x?page=2&API_KEY=[redacted]'],
    ['/x?api_key=secret\\value3"quoted&page=2', '/x?api_key=[redacted]&page=2'],
  ]
  for (const [url, expected] of secrets) {
    const line = await stderrOf(() => log.warn('request.logged', { url }))
    assert.not.ok(/secret|value/.test(line), line)
    assert.is(JSON.parse(line).url, expected)
  }
  // other parameters are kept as they are
  assert.is(redact('/x?username=alice&page=2'), '/x?username=alice&page=2')
  assert.is(redact(`/x?api_key=${KEY}&page=2`), '/x?api_key=[redacted]&page=2')
})

test('redact :: isApiKeyParamName decodes as URLSearchParams does', () => {
  for (const name of ['api_key', 'api%5Fkey', 'api%5fkey', '%61pi_key', '%61%70%69%5F%6B%65%79']) {
    assert.ok(isApiKeyParamName(name), name)
    assert.ok(new URLSearchParams(`${name}=1`).has('api_key'), name)
  }
  for (const name of ['api_keys', 'apikey', 'api%5Fkeys', 'api%ZZkey', 'api key']) assert.not.ok(isApiKeyParamName(name), name)
})

test('log :: one JSON line per call: level label, ISO time, event, then the fields; bigints as strings', async () => {
  const text = await stderrOf(() => log.warn('snapshot.load_failed', { platform_id: 18000000000000000001n, nested: { ids: [1n] }, rows: 3 }))
  assert.ok(text.endsWith('\n'))
  assert.is(text.trimEnd().split('\n').length, 1)
  const line = JSON.parse(text)
  assert.equal(Object.keys(line).slice(0, 3), ['level', 'time', 'event'])
  assert.is(line.level, 'warn')
  assert.ok(Math.abs(Date.parse(line.time) - Date.now()) < 60_000, line.time)
  assert.match(line.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
  assert.is(line.event, 'snapshot.load_failed')
  assert.is(line.platform_id, '18000000000000000001')
  assert.equal(line.nested, { ids: ['1'] })
  assert.is(line.rows, 3)
  // an error keeps its message and stack
  const failed = JSON.parse(await stderrOf(() => log.error('x.failed', { error: new Error('disk full') })))
  assert.is(failed.error.message, 'disk full')
  assert.match(failed.error.stack, /Error: disk full/)
  const cyclic: Record<string, unknown> = { n: 1n }
  cyclic.self = cyclic
  assert.equal(JSON.parse(await stderrOf(() => log.info('x', { cyclic }))).cyclic, { n: '1', self: '[Circular]' })
})

test('log :: LOG_LEVEL sets the threshold; an unknown value means info, said in a warning', () => {
  const script = "import { log } from './log/logger.ts'; for (const l of ['debug', 'info', 'warn', 'error']) log[l]('e.' + l)"
  const levelsAt = (level: string) => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, LOG_LEVEL: level },
    })
    assert.is(run.status, 0, run.stderr)
    return run.stderr.trim().split('\n').map((l) => [JSON.parse(l).level, JSON.parse(l).event].join(' '))
  }
  assert.equal(levelsAt('warn'), ['warn e.warn', 'error e.error'])
  assert.equal(levelsAt('debug'), ['debug e.debug', 'info e.info', 'warn e.warn', 'error e.error'])
  assert.equal(levelsAt('loud'), ['warn log.level_unknown', 'info e.info', 'warn e.warn', 'error e.error'])
})

test('folded :: failures of a kind beyond the burst of a window are counted in one line when the window ends', async () => {
  const logFailure = foldedLog(150, 2)
  const events = (text: string) => text.split('\n').filter(Boolean).map((line) => JSON.parse(line))
  const first = await stderrOf(async () => {
    for (let i = 1; i <= 5; i++) logFailure('error', 'request.unexpected_error', 'Error: Connection is closed.', { request_id: `r${i}` })
    logFailure('warn', 'cache.get_failed', 'Error: Connection is closed.', { request_id: 'r6' })
    logFailure('error', 'request.unexpected_error', 'TypeError: x is undefined', { request_id: 'r7' })
  })
  assert.equal(events(first).map((e) => [e.level, e.event, e.request_id, e.repeated]), [
    ['error', 'request.unexpected_error', 'r1', undefined],
    ['error', 'request.unexpected_error', 'r2', undefined],
    ['warn', 'cache.get_failed', 'r6', undefined],
    ['error', 'request.unexpected_error', 'r7', undefined],
  ])
  // the window ends: the three left out are counted, with the last one's fields; a kind within its burst writes nothing
  const ended = await stderrOf(() => new Promise((resolve) => setTimeout(resolve, 400)))
  assert.equal(events(ended).map((e) => [e.level, e.event, e.request_id, e.repeated]), [['error', 'request.unexpected_error', 'r5', 3]])
  // a new window starts with its burst written; a flush writes the count of the open window
  const flushed = await stderrOf(() => {
    for (let i = 8; i <= 10; i++) logFailure('error', 'request.unexpected_error', 'Error: Connection is closed.', { request_id: `r${i}` })
    flushFoldedLogs()
  })
  assert.equal(events(flushed).map((e) => [e.request_id, e.repeated]), [['r8', undefined], ['r9', undefined], ['r10', 1]])
})

test('progress :: away from a terminal, a log line per tenth of the work and one when it is done', async () => {
  const ci = process.env.CI
  process.env.CI = '1' // a bar, not log lines, if the suite runs on a terminal
  const text = await stderrOf(() => {
    const p = progress('build', 40)
    for (let i = 0; i < 40; i++) p.tick()
    p.done({ snapshot_id: 's1' })
  }).finally(() => (ci === undefined ? delete process.env.CI : (process.env.CI = ci)))
  const lines = text.trim().split('\n').map((l) => JSON.parse(l))
  const ticks = lines.filter((l) => l.event === 'progress')
  assert.equal(ticks.map((l) => l.pct), [2, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100])
  assert.ok(ticks.every((l) => l.task === 'build' && l.total === 40))
  assert.is(ticks.at(-1).done, 40)
  const done = lines.at(-1)
  assert.is(done.event, 'progress.done')
  assert.is(done.snapshot_id, 's1')
  assert.ok(done.ms >= 0)
})

/** Run `code` (an ES module using the log/ modules) on a pseudo-terminal (util-linux `script`), CI unset: its output. */
function onTerminal(code: string, status = 0) {
  const { CI: _, ...env } = process.env
  const command = `node --import tsx --input-type=module -e "${code.replaceAll('"', '\\"')}"`
  const run = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8', env, timeout: 30_000 })
  assert.is(run.error, undefined, String(run.error))
  assert.is(run.status, status, run.stdout + run.stderr)
  return run.stdout
}

test('progress :: on a terminal, a bar redrawn in place, then the done line; the process ends after done or fail', () => {
  const done = onTerminal(
    "import { progress } from './log/progress.ts'; import { log } from './log/logger.ts'; const p = progress('demo', 4); " +
      "for (let i = 0; i < 4; i++) { p.tick(); log.info('step', { i }) } p.done({ rows: 4 })",
  )
  assert.ok(done.includes('demo [') && done.includes('] 100% 4/4'), done)
  assert.not.ok(done.includes('"event":"progress"'), 'no per-tenth log lines on a terminal')
  // the lines logged while the bar is drawn are all written, in order, none inside the bar's line
  const steps = done.split(/\r?\n/).filter((l) => l.includes('"event":"step"'))
  assert.equal(steps.map((l) => JSON.parse(l.slice(l.indexOf('{'))).i), [0, 1, 2, 3])
  assert.ok(steps.every((l) => !l.includes('demo [')), done)
  const doneLine = done.split(/\r?\n/).find((l) => l.includes('"event":"progress.done"'))
  assert.ok(doneLine, done)
  assert.is(JSON.parse(doneLine.slice(doneLine.indexOf('{'))).rows, 4)
  // work that throws ends its bar with fail(): nothing keeps the process alive
  const failed = onTerminal("import { progress } from './log/progress.ts'; const p = progress('demo', 4); p.tick(); p.fail(); console.log('ended')")
  assert.ok(failed.includes('] 25% 1/4') && failed.includes('ended'), failed)
  assert.not.ok(failed.includes('progress.done'), failed)
  // work beside a drawn bar reports in log lines (above the bar), and bars ended in any order leave stderr as it was
  const beside = onTerminal(
    "import { progress } from './log/progress.ts'; import { log } from './log/logger.ts'; const a = progress('first', 2); " +
      "const b = progress('second', 2); b.tick(2); a.tick(2); a.done(); b.done(); process.stderr.write('after\\n')",
  )
  assert.ok(beside.includes('first [') && !beside.includes('second ['), beside)
  const events = beside.split(/\r?\n/).filter((l) => l.includes('{"level"')).map((l) => JSON.parse(l.slice(l.indexOf('{'))))
  assert.equal(events.map((e) => `${e.event} ${e.task}`), ['progress second', 'progress.done first', 'progress.done second'])
  assert.ok(beside.trimEnd().endsWith('after'), beside)
  // a process that exits while its bar is drawn still writes what it logged
  const exited = onTerminal(
    "import { progress } from './log/progress.ts'; import { log } from './log/logger.ts'; progress('demo', 4).tick(); log.error('build.failed'); process.exit(3)",
    3,
  )
  assert.ok(exited.includes('"event":"build.failed"'), exited)
})

test.run()
