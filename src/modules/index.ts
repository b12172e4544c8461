import { ApiTokensModule } from './api-tokens/api-tokens.module';
import { AttendanceModule } from './attendance/attendance.module';
import { AuditLogModule } from './audit-log/audit-log.module';
import { BatchesModule } from './batches/batches.module';
import { ChangesModule } from './changes/changes.module';
import { CampusesModule } from './campuses/campuses.module';
import { CheckInModule } from './check-in/check-in.module';
import { ConsoleModule } from './console/console.module';
import { CustomFieldsModule } from './custom-fields/custom-fields.module';
import { DevicesModule } from './devices/devices.module';
import { DonationsModule } from './donations/donations.module';
import { EventsModule } from './events/events.module';
import { FundsModule } from './funds/funds.module';
import { GroupsModule } from './groups/groups.module';
import { HouseholdsModule } from './households/households.module';
import { MembersModule } from './members/members.module';
import { NotificationsModule } from './notifications/notifications.module';
import { OAuthModule } from './oauth/oauth.module';
import { PaymentsModule } from './payments/payments.module';
import { PledgesModule } from './pledges/pledges.module';
import { PrayerRequestsModule } from './prayer-requests/prayer-requests.module';
import { ProspectsModule } from './prospects/prospects.module';
import { PushTokensModule } from './push-tokens/push-tokens.module';
import { RecurringGiftsModule } from './recurring-gifts/recurring-gifts.module';
import { ReportsModule } from './reports/reports.module';
import { SettingsModule } from './settings/settings.module';
import { StatementsModule } from './statements/statements.module';
import { TagsModule } from './tags/tags.module';
import { UsageModule } from './usage/usage.module';
import { WebhookEndpointsModule } from './webhook-endpoints/webhook-endpoints.module';

/**
 * Every feature module: the one list the API (AppModule), the worker (WorkerModule) and the CLI
 * (CliModule) import. A new resource is a folder under modules/ plus one line here. The order is
 * the order of the routes in the OpenAPI document.
 */
export const FEATURE_MODULES = [
  ApiTokensModule,
  CampusesModule,
  TagsModule,
  CustomFieldsModule,
  MembersModule,
  ProspectsModule,
  HouseholdsModule,
  StatementsModule,
  PaymentsModule,
  FundsModule,
  DonationsModule,
  BatchesModule,
  RecurringGiftsModule,
  PledgesModule,
  EventsModule,
  AttendanceModule,
  GroupsModule,
  CheckInModule,
  PushTokensModule,
  NotificationsModule,
  ReportsModule,
  DevicesModule,
  PrayerRequestsModule,
  WebhookEndpointsModule,
  ChangesModule,
  AuditLogModule,
  SettingsModule,
  UsageModule,
  OAuthModule,
  ConsoleModule,
];
