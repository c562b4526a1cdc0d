export { RejectedWriter, REJECTED_DIR } from './rejected-writer.js';
