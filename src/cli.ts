import 'reflect-metadata';
import { CommandFactory } from 'nest-commander';
import { CliModule } from './cli/cli.module';
import { describeCliError } from './cli/cli-support';
import { StderrLogger } from './cli/stderr-logger';
import { ConfigError, loadConfig } from './config/app-config';

async function main(): Promise<void> {
  const config = loadConfig();
  const fail = (error: unknown) => {
    process.stderr.write(`error: ${describeCliError(error)}\n`);
    process.exitCode = 1;
  };
  await CommandFactory.run(CliModule.forRoot(config), {
    logger: new StderrLogger('cli', { logLevels: ['fatal', 'error', 'warn'] }),
    cliName: 'npm run cli --',
    errorHandler: (error) => {
      // commander has already printed its own message; --help and --version are not failures
      const { code, exitCode } = error as { code?: string; exitCode?: number };
      if (code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help') return;
      if (code?.startsWith('commander.')) process.exitCode = exitCode || 1;
      else fail(error);
    },
    serviceErrorHandler: fail,
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`error: ${error instanceof ConfigError ? error.message : describeCliError(error)}\n`);
  process.exitCode = 1;
});
