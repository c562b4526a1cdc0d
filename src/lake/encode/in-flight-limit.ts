/** At most `max` promises outstanding: `ready()` waits for room, `track()` counts one until it settles. */
export class InFlightLimit {
  private count = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {}

  /** Resolves once fewer than `max` tracked promises are outstanding. */
  async ready(): Promise<void> {
    while (this.count >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  track<T>(promise: Promise<T>): Promise<T> {
    this.count++;
    const release = () => {
      this.count--;
      this.waiting.shift()?.();
    };
    promise.then(release, release);
    return promise;
  }
}
