import { Module } from '@nestjs/common';
import { AppConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { CampusesModule } from './modules/campuses/campuses.module';
import { MembersModule } from './modules/members/members.module';
import { AuthModule } from './platform/auth/auth.module';
import { TenancyModule } from './platform/tenancy/tenancy.module';
import { UsersModule } from './platform/users/users.module';

/** The module graph shared by the API, the worker and the CLI. */
@Module({
  imports: [AppConfigModule, DatabaseModule, TenancyModule, AuthModule, UsersModule, CampusesModule, MembersModule],
  exports: [AppConfigModule, DatabaseModule, TenancyModule, AuthModule, UsersModule, CampusesModule, MembersModule],
})
export class CoreModule {}
