import { agentCount, MAX_AGENTS, postWebhook } from './http-post';

describe('postWebhook', () => {
  it('keeps at most MAX_AGENTS keep-alive agents, however many origins it posts to', async () => {
    // Closed loopback ports: each POST is refused at once, and each is a new origin.
    const origins = Array.from({ length: MAX_AGENTS + 20 }, (_, i) => `http://127.0.0.1:${1 + i}/hook`);
    const results = await Promise.all(origins.map((url) => postWebhook(url, '{}', {}, 2_000, true)));
    expect(results.every((r) => r.error !== null)).toBe(true);
    expect(agentCount()).toBe(MAX_AGENTS);
  });
});
