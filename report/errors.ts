/** Bad or missing input files: CLIs print the message on one line and exit non-zero. */
export class ReportInputError extends Error {
  override name = 'ReportInputError';
}
