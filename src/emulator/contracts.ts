/**
 * What the emulator's HTTP layer needs from its data modules. The wire shapes are the spec's:
 * every price, volume, sequence number and timestamp a string.
 */

export type {
  HaltExchange,
  WireDepthTick,
  WireHaltRecord,
  WireKline,
  WireLevel,
  WireTradeTick,
} from '../core/wire.js';
