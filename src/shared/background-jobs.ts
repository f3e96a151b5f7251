/**
 * Work started after a request was answered (a data export): each job is tracked until it ends,
 * so that whoever must see its outcome (a test comparing state, an operator's tool) can wait for it.
 */
export class BackgroundJobs {
  private readonly running = new Set<Promise<unknown>>();

  /** Starts a job; it must handle its own errors (a rejection is only logged by its author). */
  run(job: () => Promise<unknown>): void {
    const running: Promise<unknown> = job().finally(() => this.running.delete(running));
    this.running.add(running);
  }

  /** Whether a job runs now. */
  get busy(): boolean {
    return this.running.size > 0;
  }

  /** Resolves once no job runs, including those started by the jobs awaited. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
