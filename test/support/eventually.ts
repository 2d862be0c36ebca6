/**
 * Polls until `probe` answers something truthy (then returns it) or fails the test after `timeoutMs`,
 * saying what it waited for and the last answer or error. For end-to-end tests on a live control plane.
 */
import assert from 'node:assert/strict';

export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
  everyMs = 150,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    const value = await probe().catch((err: unknown) => ((last = String(err)), undefined));
    if (value) return value;
    if (value !== undefined) last = value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
