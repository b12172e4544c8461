import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { EnvironmentVariables } from './env.schema';

export type AppConfig = Readonly<EnvironmentVariables>;

/** Thrown at boot when a variable is invalid; the message names every bad variable. */
export class ConfigError extends Error {}

export function validateEnvironment(env: Record<string, unknown>): AppConfig {
  const known = Object.keys(new EnvironmentVariables());
  // Class fields are defined even when optional, so every variable of the schema is a key here.
  const input = Object.fromEntries(Object.entries(env).filter(([key]) => known.includes(key)));
  const config = plainToInstance(EnvironmentVariables, input, { exposeDefaultValues: true });
  const errors = validateSync(config, { whitelist: true, forbidUnknownValues: false });
  if (errors.length > 0) {
    const lines = errors.map(
      (e) => `  ${e.property}=${JSON.stringify(e.value)}: ${Object.values(e.constraints ?? {}).join('; ')}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  // The public address defaults to this machine outside production; production must say it (CONTRACT §1).
  if (!config.PUBLIC_URL && config.NODE_ENV !== 'production') config.PUBLIC_URL = `http://localhost:${config.PORT}`;
  return Object.freeze(config);
}

/** The only reader of process.env, besides the tracing bootstrap that runs before it (src/common/telemetry/tracing.ts). */
export function loadConfig(): AppConfig {
  return validateEnvironment(process.env);
}

export const APP_CONFIG = Symbol('APP_CONFIG');
