import { CreateFoundation1764100000000 } from './1764100000000-CreateFoundation';
import { AddApiGuarantees1764200000000 } from './1764200000000-AddApiGuarantees';
import { CreateWebhooks1764300000000 } from './1764300000000-CreateWebhooks';
import { CreateMailOutbox1764400000000 } from './1764400000000-CreateMailOutbox';
import { CreateBackgroundJobs1764500000000 } from './1764500000000-CreateBackgroundJobs';
import { CreateHouseholds1764640000000 } from './1764640000000-CreateHouseholds';
import { CreateProspects1764610000000 } from './1764610000000-CreateProspects';
import { CreatePrayerRequests1764600000000 } from './1764600000000-CreatePrayerRequests';
import { CreateTags1764620000000 } from './1764620000000-CreateTags';
import { CreateCustomFields1764630000000 } from './1764630000000-CreateCustomFields';
import { CreateGiving1764700000000 } from './1764700000000-CreateGiving';
import { CreateRecurringGiftsAndPledges1764710000000 } from './1764710000000-CreateRecurringGiftsAndPledges';
import { CreatePaymentProcessors1764720000000 } from './1764720000000-CreatePaymentProcessors';
import { CreateStatements1764730000000 } from './1764730000000-CreateStatements';
import { CreateEvents1764800000000 } from './1764800000000-CreateEvents';
import { CreateAttendance1764810000000 } from './1764810000000-CreateAttendance';
import { CreateCheckIns1764820000000 } from './1764820000000-CreateCheckIns';
import { CreateGroups1764830000000 } from './1764830000000-CreateGroups';
import { CreateOAuthClients1764900000000 } from './1764900000000-CreateOAuthClients';
import { CreateOAuthGrants1764910000000 } from './1764910000000-CreateOAuthGrants';
import { CreateOAuthAuthorizationRequests1764920000000 } from './1764920000000-CreateOAuthAuthorizationRequests';
import { AddSearchKeyColumns1764950000000 } from './1764950000000-AddSearchKeyColumns';
import { RemoveDeletedMembersFromGroups1764960000000 } from './1764960000000-RemoveDeletedMembersFromGroups';
import { CreateCheckInSettings1764970000000 } from './1764970000000-CreateCheckInSettings';
import { CreateNotifications1764980000000 } from './1764980000000-CreateNotifications';
import { AddReportIndexes1764990000000 } from './1764990000000-AddReportIndexes';
import { CreateGivingDays1765000000000 } from './1765000000000-CreateGivingDays';
import { AddTokenCreatorToken1765100000000 } from './1765100000000-AddTokenCreatorToken';
import { IsolateMailOutbox1765110000000 } from './1765110000000-IsolateMailOutbox';
import { AddCheckoutLock1765120000000 } from './1765120000000-AddCheckoutLock';
import { CreateChangeLog1765130000000 } from './1765130000000-CreateChangeLog';
import { AddMemberMerge1765140000000 } from './1765140000000-AddMemberMerge';
import { CreateWebhookEndpointHealth1765150000000 } from './1765150000000-CreateWebhookEndpointHealth';
import { CreateConsoleSessions1765170000000 } from './1765170000000-CreateConsoleSessions';
import { StaticMembershipChangeTriggers1765180000000 } from './1765180000000-StaticMembershipChangeTriggers';
import { DerivedValueChanges1765190000000 } from './1765190000000-DerivedValueChanges';
import { DropOutboxTenantForeignKeys1765235000000 } from './1765235000000-DropOutboxTenantForeignKeys';
import { LeaseDeliveriesOutsideDueIndex1765236000000 } from './1765236000000-LeaseDeliveriesOutsideDueIndex';

/** Every migration, in order. A new migration is added here too. */
export const MIGRATIONS = [
  CreateFoundation1764100000000,
  AddApiGuarantees1764200000000,
  CreateWebhooks1764300000000,
  CreateMailOutbox1764400000000,
  CreateBackgroundJobs1764500000000,
  CreatePrayerRequests1764600000000,
  CreateProspects1764610000000,
  CreateTags1764620000000,
  CreateCustomFields1764630000000,
  CreateHouseholds1764640000000,
  CreateGiving1764700000000,
  CreateRecurringGiftsAndPledges1764710000000,
  CreatePaymentProcessors1764720000000,
  CreateStatements1764730000000,
  CreateEvents1764800000000,
  CreateAttendance1764810000000,
  CreateCheckIns1764820000000,
  CreateGroups1764830000000,
  CreateOAuthClients1764900000000,
  CreateOAuthGrants1764910000000,
  CreateOAuthAuthorizationRequests1764920000000,
  AddSearchKeyColumns1764950000000,
  RemoveDeletedMembersFromGroups1764960000000,
  CreateCheckInSettings1764970000000,
  CreateNotifications1764980000000,
  AddReportIndexes1764990000000,
  CreateGivingDays1765000000000,
  AddTokenCreatorToken1765100000000,
  IsolateMailOutbox1765110000000,
  AddCheckoutLock1765120000000,
  CreateChangeLog1765130000000,
  AddMemberMerge1765140000000,
  CreateWebhookEndpointHealth1765150000000,
  CreateConsoleSessions1765170000000,
  StaticMembershipChangeTriggers1765180000000,
  DerivedValueChanges1765190000000,
  DropOutboxTenantForeignKeys1765235000000,
  LeaseDeliveriesOutsideDueIndex1765236000000,
];
