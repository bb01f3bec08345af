/** Stops what jest-global-setup started with testcontainers, if anything. */
export default async function globalTeardown(): Promise<void> {
  const started = (globalThis as { __crewswapContainers?: { stop(): Promise<unknown> }[] }).__crewswapContainers ?? [];
  await Promise.all(started.map((container) => container.stop()));
}
