/** Raised when an audit returns rows: names the audit and carries a sample of the offending rows. */
export class AuditError extends Error {
  constructor(
    readonly audit: string,
    readonly sample: Record<string, unknown>[],
  ) {
    super(`audit ${audit} failed: ${JSON.stringify(sample)}`)
    this.name = 'AuditError'
  }
}
