/**
 * The interactive API reference at `/docs`: Scalar's standalone bundle, served from its npm package (no CDN, no
 * request leaves the server's origin), rendering our own `/openapi.json`. A user pastes a key into the
 * Authentication box and sends any operation from the page.
 *
 * @example app.get('/docs', () => apiReferencePage()); app.get(API_REFERENCE_BUNDLE_PATH, () => apiReferenceBundle())
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'

export const API_REFERENCE_PATH = '/docs'
export const API_REFERENCE_BUNDLE_PATH = '/docs/scalar.js'
export const API_REFERENCE_INIT_PATH = '/docs/init.js'

/** Only our origin: the browser itself refuses any request elsewhere (fonts, telemetry, proxies). */
export const API_REFERENCE_CSP = [
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

/** The Scalar bundle (4 MB), read from the package on first use. */
export function apiReferenceBundle(): Buffer {
  bundle ??= fs.readFileSync(bundleFile)
  return bundle
}

/** The page: a mount point and two scripts of our origin (the bundle, then its configuration). */
export function apiReferencePage(title = 'Account Scoring API reference'): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
</head>
<body>
<div id="app"></div>
<script src="${API_REFERENCE_BUNDLE_PATH}"></script>
<script src="${API_REFERENCE_INIT_PATH}"></script>
</body>
</html>
`
}

/** Scalar's configuration: our document, the preferred `X-API-Key` scheme, nothing fetched from elsewhere. */
export function apiReferenceInit(openapiPath = '/openapi.json'): string {
  const configuration = {
    url: openapiPath,
    authentication: { preferredSecurityScheme: 'ApiKeyHeader' },
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    showDeveloperTools: 'never',
    documentDownloadType: 'json',
  }
  return `Scalar.createApiReference('#app', ${JSON.stringify(configuration)})\n`
}
