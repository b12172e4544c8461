import 'reflect-metadata';
import { ConfigError, validateEnvironment } from './app-config';

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const config = validateEnvironment({});
    expect(config).toMatchObject({
      PORT: 3000,
      DB_POOL_SIZE: 10,
      DB_MIGRATE_ON_START: true,
      WEBHOOK_RETRY_SCHEDULE: '30s,5m,1h,6h,24h',
      WEBHOOK_TIMEOUT_MS: 3000,
      WEBHOOK_ALLOW_LOOPBACK: false,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.PAYMENTS_API_URL).toBe('https://api.stripe.com');
    expect(config.PUBLIC_URL).toBe('http://localhost:3000');
  });

  it('builds the default PUBLIC_URL on PORT outside production, and leaves it unset in production', () => {
    expect(validateEnvironment({ PORT: '8080' }).PUBLIC_URL).toBe('http://localhost:8080');
    expect(validateEnvironment({ PORT: '8080', PUBLIC_URL: '' }).PUBLIC_URL).toBe('http://localhost:8080');
    expect(validateEnvironment({ NODE_ENV: 'production' }).PUBLIC_URL).toBeUndefined();
    expect(validateEnvironment({ NODE_ENV: 'production', PUBLIC_URL: 'https://api.example.org' }).PUBLIC_URL).toBe(
      'https://api.example.org',
    );
  });

  it('reads the payment processor API base, and an empty one falls back to the default', () => {
    expect(validateEnvironment({ PAYMENTS_API_URL: 'http://127.0.0.1:4242' }).PAYMENTS_API_URL).toBe(
      'http://127.0.0.1:4242',
    );
    expect(validateEnvironment({ PAYMENTS_API_URL: '' }).PAYMENTS_API_URL).toBe('https://api.stripe.com');
  });

  it('reads and converts the variables it knows, ignores the rest', () => {
    const config = validateEnvironment({
      PORT: '8080',
      DATABASE_URL: 'postgres://u@db:5432/church',
      REDIS_URL: 'redis://cache:6379',
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      HOME: '/root',
    });
    expect(config).toMatchObject({
      PORT: 8080,
      DATABASE_URL: 'postgres://u@db:5432/church',
      REDIS_URL: 'redis://cache:6379',
      WEBHOOK_ALLOW_LOOPBACK: true,
    });
    expect(config).not.toHaveProperty('HOME');
  });

  it('refuses bad values with a message naming every bad variable', () => {
    const bad = {
      PORT: 'abc',
      SMTP_URL: 'bad',
      DATABASE_URL: 'mysql://x',
      WEBHOOK_RETRY_SCHEDULE: 'soon',
      ENCRYPTION_KEY: 'short',
      PAYMENTS_API_URL: 'ftp://x',
      PUBLIC_URL: 'not a url',
    };
    expect(() => validateEnvironment(bad)).toThrow(ConfigError);
    try {
      validateEnvironment(bad);
    } catch (error) {
      for (const name of Object.keys(bad)) expect((error as Error).message).toContain(name);
    }
  });
});
