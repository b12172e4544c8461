import { Module } from '@nestjs/common';
import { CryptoModule } from './common/crypto/crypto.module';
import { AppConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { CampusesModule } from './modules/campuses/campuses.module';
import { HouseholdsModule } from './modules/households/households.module';
import { MembersModule } from './modules/members/members.module';
import { TagsModule } from './modules/tags/tags.module';
import { CustomFieldsModule } from './modules/custom-fields/custom-fields.module';
import { DonationsModule } from './modules/donations/donations.module';
import { BatchesModule } from './modules/batches/batches.module';
import { PaymentsModule } from './modules/payments/payments.module';
import { ProspectsModule } from './modules/prospects/prospects.module';
import { StatementsModule } from './modules/statements/statements.module';
import { RecurringGiftsModule } from './modules/recurring-gifts/recurring-gifts.module';
import { PledgesModule } from './modules/pledges/pledges.module';
import { CalendarEventsModule } from './modules/events/events.module';
import { AttendanceModule } from './modules/attendance/attendance.module';
import { CheckInModule } from './modules/check-in/check-in.module';
import { GroupsModule } from './modules/groups/groups.module';
import { NotificationsModule } from './modules/notifications/notifications.module';
import { PushTokensModule } from './modules/push-tokens/push-tokens.module';
import { ReportsModule } from './modules/reports/reports.module';
import { AuthModule } from './platform/auth/auth.module';
import { MailModule } from './platform/mail/mail.module';
import { PushModule } from './platform/push/push.module';
import { TenancyModule } from './platform/tenancy/tenancy.module';
import { UsersModule } from './platform/users/users.module';
import { WebhooksModule } from './platform/webhooks/webhooks.module';
import { ListTotalsModule } from './platform/list-totals/list-totals.module';
import { RedisModule } from './platform/redis/redis.module';

/** The module graph shared by the API, the worker and the CLI (crypto, mail, push and webhooks are global). */
@Module({
  imports: [
    AppConfigModule,
    DatabaseModule,
    CryptoModule,
    RedisModule,
    ListTotalsModule,
    MailModule,
    PushModule,
    WebhooksModule,
    TenancyModule,
    AuthModule,
    UsersModule,
    CampusesModule,
    TagsModule,
    CustomFieldsModule,
    MembersModule,
    ProspectsModule,
    HouseholdsModule,
    StatementsModule,
    PaymentsModule,
    DonationsModule,
    BatchesModule,
    RecurringGiftsModule,
    PledgesModule,
    CalendarEventsModule,
    AttendanceModule,
    GroupsModule,
    CheckInModule,
    PushTokensModule,
    NotificationsModule,
    ReportsModule,
  ],
  exports: [
    AppConfigModule,
    DatabaseModule,
    TenancyModule,
    AuthModule,
    UsersModule,
    CampusesModule,
    MembersModule,
    HouseholdsModule,
  ],
})
export class CoreModule {}
