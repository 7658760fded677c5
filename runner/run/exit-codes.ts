// k6's exit codes live in k6-format, where the report and the stack read them too.
export { EXIT } from '@loadlab/k6-format/exit-codes';
