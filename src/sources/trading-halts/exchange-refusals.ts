/**
 * An exchange the service will not answer (a token whose plan does not cover it, an endpoint
 * failing past its retries) must not cost the records of the exchanges it did answer: that
 * exchange is named as not delivered (a shortfall, exit 4) and the others are committed. Only when
 * every exchange failed is the run's failure the service's error itself (a wrong address, an
 * unknown token: nothing was delivered, so there is nothing to keep).
 */
import { ApiError, ResponseShapeError, TransportError } from '../../core/errors.js';
import { RetryAfterBeyondBudgetError } from '../../api/retry-after-budget.js';

export class ExchangeRefusals {
  private readonly failed: Error[] = [];

  constructor(private readonly exchanges: number) {}

  /**
   * Whether `error` is one exchange's alone to bear: a service answer or transport failure, not an
   * unknown token (every exchange would fail the same way). Throws it when every exchange failed.
   */
  absorb(error: unknown): error is ApiError | TransportError | ResponseShapeError | RetryAfterBeyondBudgetError {
    const serviceSide =
      error instanceof ApiError || error instanceof TransportError || error instanceof ResponseShapeError || error instanceof RetryAfterBeyondBudgetError;
    if (!serviceSide || error.code === 'QL_API_TOKEN_INVALID') return false;
    this.failed.push(error);
    if (this.failed.length === this.exchanges) throw this.failed[0]!;
    return true;
  }
}
