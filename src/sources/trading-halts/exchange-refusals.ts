/**
 * An exchange the service will not answer (a token whose plan does not cover it, an endpoint
 * failing past its retries) must not cost the records of the exchanges it did answer: that
 * exchange is named as not delivered (a shortfall, exit 4) and the others are committed. Only when
 * every exchange failed is the run's failure the service's error itself (a wrong address, an
 * unknown token: nothing was delivered, so there is nothing to keep).
 *
 * Whether the others' records are kept is known only once every exchange has settled, so the
 * notes of the failed ones wait for the last: a note never says records were kept when none were.
 */
import { ApiError, ResponseShapeError, TransportError } from '../../core/errors.js';
import { RetryAfterBeyondBudgetError } from '../../api/retry-after-budget.js';

type ServiceSideError = ApiError | TransportError | ResponseShapeError | RetryAfterBeyondBudgetError;

/** Says one failed exchange; `othersDelivered`: whether any exchange's records were delivered. */
export type SayNotDelivered = (exchange: string, error: ServiceSideError, othersDelivered: boolean) => void;

export class ExchangeRefusals {
  private readonly failed: { exchange: string; error: ServiceSideError }[] = [];
  private settled = 0;
  private delivered = 0;

  constructor(
    private readonly exchanges: number,
    private readonly say: SayNotDelivered,
  ) {}

  /**
   * Whether `error` is one exchange's alone to bear: a service answer or transport failure, not an
   * unknown token (every exchange would fail the same way). Such a failure settles the exchange;
   * when every exchange failed, the first failure is thrown (after each is said).
   */
  absorb(exchange: string, error: unknown): error is ServiceSideError {
    const serviceSide =
      error instanceof ApiError || error instanceof TransportError || error instanceof ResponseShapeError || error instanceof RetryAfterBeyondBudgetError;
    if (!serviceSide || error.code === 'QL_API_TOKEN_INVALID') return false;
    this.failed.push({ exchange, error });
    this.settle();
    if (this.failed.length === this.exchanges) throw this.failed[0]!.error;
    return true;
  }

  /** An exchange whose records were fetched. */
  deliveredOne(): void {
    this.delivered++;
    this.settle();
  }

  /** An exchange that ended otherwise (the quota used up, another error, a stop): not delivered. */
  endedOtherwise(): void {
    this.settle();
  }

  private settle(): void {
    this.settled++;
    if (this.settled !== this.exchanges) return;
    for (const { exchange, error } of this.failed) this.say(exchange, error, this.delivered > 0);
  }
}
