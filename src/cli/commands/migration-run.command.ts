import { Command, CommandRunner } from 'nest-commander';
import { Database } from '../../database/database.service';

@Command({ name: 'migration:run', description: 'Apply pending database migrations' })
export class MigrationRunCommand extends CommandRunner {
  constructor(private readonly db: Database) {
    super();
  }

  async run(): Promise<void> {
    await this.db.connect({ migrate: false });
    const applied = await this.db.migrate();
    process.stderr.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'no pending migrations\n');
  }
}
