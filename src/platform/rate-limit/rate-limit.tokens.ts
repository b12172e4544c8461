/** DI token of the Redis connection used for rate limits and usage (null without REDIS_URL). */
export const RATE_LIMIT_REDIS = 'RATE_LIMIT_REDIS';
