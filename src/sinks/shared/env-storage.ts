/** The output's storage a sink was given (ComponentEnv keeps it opaque), or undefined for the local folder. */
import type { ComponentEnv } from '../../core/definition.js';
import type { LakeStorage } from '../../lake/storage/lake-storage.js';

export function envStorage(env: ComponentEnv): LakeStorage | undefined {
  return env.storage as LakeStorage | undefined;
}

/** True when the output is not a local folder (an object store): a sink that needs a file refuses it. */
export function envIsRemote(env: ComponentEnv): boolean {
  const storage = envStorage(env);
  return storage !== undefined && storage.localPath('_quotelake') === undefined;
}
