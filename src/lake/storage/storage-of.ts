/**
 * Where a lake is, as callers give it: a LakeStorage, or an output folder (the local backend).
 * Readers take either, so a local caller keeps passing a path and an S3 lake passes its storage.
 */
import type { LakeStorage } from './lake-storage.js';
import { localStorage } from './local-storage.js';

export type LakeLocation = LakeStorage | string;

export function storageOf(where: LakeLocation): LakeStorage {
  return typeof where === 'string' ? localStorage(where) : where;
}
