/**
 * A problem a source found in one record, where seeing it needs the request, the answer as a whole
 * or the product catalog (a wrong echo, a conflicting duplicate, a bar off the grid). The record
 * still flows on as data; parse-decimals turns it into a rejected record with this code, field and
 * value, so every bad record leaves by one path (onReject decides).
 */
export interface RecordFlaw {
  /** Stable reject code (see reject-codes.ts). */
  readonly code: string;
  readonly field: string;
  readonly value: string;
  /** What is wrong, naming the value; the code and field are added by the reject. */
  readonly reason: string;
}
