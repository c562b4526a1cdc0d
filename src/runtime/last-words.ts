/**
 * The moment before a process is ended at once (the command line's second signal, or a stop that
 * hung): what a run may still write then, in a time the caller bounds, as such a write may never
 * return (a hung file system). A run adds the mark of its own record as `interrupted`, so that the
 * record does not say `running` until the next run on the output finds it.
 */
export interface LastWords {
  /** `write` is called when the process is about to end at once; the returned function withdraws it. */
  add(write: () => Promise<void>): () => void;
}
