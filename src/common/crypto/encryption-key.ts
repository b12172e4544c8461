import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AppConfig } from '../../config/app-config';

/**
 * ENCRYPTION_KEY, or outside production a key kept beside the embedded database (created once),
 * so that `npm start` works with no set-up. Production refuses to run without ENCRYPTION_KEY.
 */
export function loadEncryptionKey(config: AppConfig): Buffer {
  if (config.ENCRYPTION_KEY) return Buffer.from(config.ENCRYPTION_KEY, 'base64');
  if (config.NODE_ENV === 'production')
    throw new Error('ENCRYPTION_KEY must be set in production (openssl rand -base64 32)');
  const file = join(dirname(config.PGLITE_DATA_DIR), 'encryption.key');
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error; // another process made it first
    }
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}
