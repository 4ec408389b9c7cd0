import { accountModule } from './account/routes.js';
import { adminModule } from './admin/routes.js';
import { broadcastsModule } from './broadcasts/routes.js';
import { campaignTriggersModule } from './campaign-triggers/routes.js';
import { consentModule } from './consent/index.js';
import { contactRecordsModule } from './contact-records/module.js';
import { contactsListModule } from './contacts/list-routes.js';
import { contactDetailModule } from './contacts/module.js';
import { devModule } from './dev/routes.js';
import { dialerModule } from './dialer/index.js';
import { emailModule } from './email/module.js';
import { eventsModule } from './events/routes.js';
import { healthModule } from './health/routes.js';
import { importsModule } from './imports/index.js';
import { lookupsModule } from './lookups/module.js';
import { maxPlusModule } from './max-plus/routes.js';
import { notificationsModule } from './notifications/channel.js';
import { officeLocationsModule } from './office-locations/routes.js';
import { quickFiltersModule } from './quick-filters/routes.js';
import { sessionModule } from './session/routes.js';
import { smsModule } from './sms/module.js';
import { soaModule } from './soa/routes.js';
import { storeModule } from './store/routes.js';
import { tagsModule } from './tags/routes.js';
import { transfersModule } from './transfers/routes.js';
import type { Module } from './types.js';
import { usagePlansModule } from './usage-plans/index.js';
import { usersModule } from './users/routes.js';
import { walletModule } from './wallet/index.js';

/** Every area of the API, in registration order. A new area adds one line here. */
export const modules: Module[] = [
  healthModule,
  sessionModule,
  usersModule,
  notificationsModule,
  officeLocationsModule,
  adminModule,
  contactDetailModule,
  contactRecordsModule,
  tagsModule,
  lookupsModule,
  importsModule,
  contactsListModule,
  transfersModule,
  quickFiltersModule,
  eventsModule,
  soaModule,
  devModule,
  walletModule,
  usagePlansModule,
  accountModule,
  maxPlusModule,
  storeModule,
  consentModule,
  broadcastsModule,
  campaignTriggersModule,
  emailModule,
  smsModule,
  dialerModule,
];
