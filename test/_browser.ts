/**
 * A real headless Chromium (Debian's `chromium`, installed by .ci/run) driven with puppeteer-core, for the tests of
 * the pages. `CHROMIUM_PATH` names another binary. Screenshots go to `ARTIFACTS_DIR` (default `.artifacts/`).
 *
 * @example const browser = await openBrowser(); const page = await browser.newPage(); ...; await browser.close()
 */
import fs from 'node:fs'
import path from 'node:path'
import puppeteer, { type Browser, type Page } from 'puppeteer-core'

export const ARTIFACTS_DIR = path.resolve(process.env.ARTIFACTS_DIR || '.artifacts')

export async function openBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    // the machine has no network: no background connections, no sandbox as root, no GPU
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  })
}

/** Save the page as `<ARTIFACTS_DIR>/<name>.png` and return the file's path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true })
  const file = path.join(ARTIFACTS_DIR, `${name}.png`)
  await page.screenshot({ path: file as `${string}.png` })
  return file
}
