import type { MarketOperation } from '../routes/route-table.js';
import type { BehaviourSpec } from './behaviour-spec.js';
import { draw, TAG } from './draw.js';
import { withExtraFields } from './extra-fields.js';
import { numberForm } from './number-forms.js';

/**
 * R4 and R5 on a whole answer: every price, volume and turnover may take another text, every object
 * may carry unknown fields. Works on copies (the market's closed bars are frozen and shared).
 * Decisions hash (seed, salt of the answer, position in the answer, field), so one request always
 * gets the same text and two requests usually differ.
 */
export class AnswerDecorator {
  private position = 0;
  constructor(
    private readonly seed: number,
    private readonly spec: Pick<BehaviourSpec, 'numberForms' | 'extraFields'>,
    private readonly salt: number,
  ) {}

  /** An object with its named number fields re-texted and maybe extra fields; other fields as they are. */
  object<T extends object>(obj: T, numberFields: readonly string[] = []): T {
    const at = this.position++;
    let out: Record<string, unknown> = obj as Record<string, unknown>;
    if (this.spec.numberForms > 0 && numberFields.length > 0) {
      out = { ...out };
      numberFields.forEach((field, i) => {
        const v = out[field];
        if (typeof v === 'string' && draw(this.seed, TAG.numberForm, this.salt, at, i) < this.spec.numberForms) {
          out[field] = numberForm(v, draw(this.seed, TAG.numberFormKind, this.salt, at, i));
        }
      });
    }
    if (this.spec.extraFields > 0 && draw(this.seed, TAG.extraField, this.salt, at) < this.spec.extraFields) {
      out = withExtraFields(out, draw(this.seed, TAG.extraFieldKind, this.salt, at, 1), draw(this.seed, TAG.extraFieldKind, this.salt, at, 2));
    }
    return out as T;
  }
}

const BAR_NUMBERS = ['open_price', 'close_price', 'high_price', 'low_price', 'volume', 'turnover'] as const;
const LEVEL_NUMBERS = ['price', 'volume'] as const;
const TRADE_NUMBERS = ['price', 'volume', 'turnover'] as const;

type Obj = Record<string, unknown>;
const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

/** A successful market-data envelope `{ret, msg, trace, data}` of `op`, decorated throughout. */
export function decorateMarketAnswer(op: MarketOperation, body: Obj, d: AnswerDecorator): Obj {
  const data = { ...(body.data as Obj) };
  const bars = (v: unknown) => list(v).map((k) => d.object(k, BAR_NUMBERS));
  if (op === 'kline') data.kline_list = bars(data.kline_list);
  else if (op === 'batch-kline') data.kline_list = list(data.kline_list).map((item) => d.object({ ...item, kline_data: bars(item.kline_data) }));
  else if (op === 'depth-tick') {
    const levels = (v: unknown) => list(v).map((l) => d.object(l, LEVEL_NUMBERS));
    data.tick_list = list(data.tick_list).map((t) => d.object({ ...t, bids: levels(t.bids), asks: levels(t.asks) }));
  } else data.tick_list = list(data.tick_list).map((t) => d.object(t, TRADE_NUMBERS));
  return d.object({ ...body, data: d.object(data) });
}

/** A successful suspension envelope: the envelope and each record may carry unknown fields (R5). */
export function decorateHaltAnswer(body: Obj, d: AnswerDecorator): Obj {
  return d.object({ ...body, data: list(body.data).map((r) => d.object(r)) });
}
