/**
 * `onReject: divert` needs a Sink<Rejected>; the sinks ship a RejectedWriter with its own shape.
 * This adapts it, and keeps its row counting out of the run's events (the run counts rejects itself).
 */
import type { CommitReceipt, Rejected, RunContext, Sink } from '../core/component.js';
import type { ComponentEnv } from '../core/definition.js';
import { RejectedWriter } from '../sinks/rejected/index.js';

function withoutRowEvents(ctx: RunContext): RunContext {
  return { ...ctx, events: { ...ctx.events, request: (e) => ctx.events.request(e), rows: () => undefined } };
}

export function createRejectedSink(env: ComponentEnv & { readonly dataset: string }): Sink<Rejected> {
  const writer = new RejectedWriter(env.outputDir);
  return {
    recover: (ctx) => writer.recover(ctx),
    write: (batch, ctx) => writer.write(env.dataset, batch.records, withoutRowEvents(ctx)),
    flush: async () => undefined,
    commit: async (ctx): Promise<CommitReceipt> => {
      const files = await writer.commit(ctx);
      return { files, rows: files.reduce((a, f) => a + f.rows, 0) };
    },
    abort: (ctx) => writer.abort(ctx),
    close: async () => undefined,
  };
}
