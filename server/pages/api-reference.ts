/**
 * The interactive API reference at `/docs`: Scalar's standalone bundle, served from its npm package (no CDN, no
 * request leaves the server's origin), rendering our own `/openapi.json`. A user pastes a key into the
 * Authentication box and sends any operation from the page.
 *
 * @example addApiReference(app) // GET /docs, /docs/scalar.js, /docs/init.js
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import type { H3 } from 'h3'

export const API_REFERENCE_PATH = '/docs'
const BUNDLE_PATH = '/docs/scalar.js'
const INIT_PATH = '/docs/init.js'
const JAVASCRIPT = 'text/javascript; charset=utf-8'

/** Only our origin: the browser itself refuses any request elsewhere (fonts, telemetry, proxies). */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
].join('; ')

const bundleFile = createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js')
let bundle: Buffer | undefined

/** The page: a mount point and two scripts of our origin (the bundle, then its configuration). */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Account Scoring API reference</title>
</head>
<body>
<div id="app"></div>
<script src="${BUNDLE_PATH}"></script>
<script src="${INIT_PATH}"></script>
</body>
</html>
`

/** Scalar's configuration: our document, the preferred `X-API-Key` scheme, nothing fetched from elsewhere. */
const CONFIGURATION = {
  url: '/openapi.json',
  authentication: { preferredSecurityScheme: 'ApiKeyHeader' },
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  showDeveloperTools: 'never',
  documentDownloadType: 'json',
}
const INIT = `Scalar.createApiReference('#app', ${JSON.stringify(CONFIGURATION)})\n`

export function addApiReference(app: H3): void {
  app.get(API_REFERENCE_PATH, (event) => {
    event.res.headers.set('content-security-policy', CSP)
    event.res.headers.set('content-type', 'text/html; charset=utf-8')
    return PAGE
  })
  // the Scalar bundle (4 MB), read from the package on first use
  app.get(BUNDLE_PATH, (event) => {
    event.res.headers.set('cache-control', 'public, max-age=86400')
    event.res.headers.set('content-type', JAVASCRIPT)
    return (bundle ??= fs.readFileSync(bundleFile))
  })
  app.get(INIT_PATH, (event) => {
    event.res.headers.set('content-type', JAVASCRIPT)
    return INIT
  })
}
