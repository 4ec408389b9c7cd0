/**
 * The signed-in app's pages, each its own chunk loaded when first shown. This table is a chunk of its own, fetched
 * beside the app shell (router.tsx) rather than with the entry: each import here carries the list of chunks its page
 * preloads, ~3 kB gzip the sign-in page never uses. scripts/check-bundle.mjs counts it with every page.
 */
import { lazyNamed } from './lazyNamed';

const contactSets = () => import('./admin/lookups/ContactSetsPages');
const lookupPages = () => import('./admin/lookups/pages');
const team = () => import('./team/TeamPage');

export const APP_PAGES = {
  DashboardPage: lazyNamed(() => import('./DashboardPage'), 'DashboardPage'),
  ProfilePage: lazyNamed(() => import('./profile/ProfilePage'), 'ProfilePage'),
  BillingPage: lazyNamed(() => import('./BillingPage'), 'BillingPage'),
  MaxPlusPage: lazyNamed(() => import('./billing/MaxPlusPage'), 'MaxPlusPage'),
  StorePage: lazyNamed(() => import('./store/StorePage'), 'StorePage'),
  ContactsPage: lazyNamed(() => import('./contacts/ContactsPage'), 'ContactsPage'),
  TransfersPage: lazyNamed(() => import('./contacts/TransfersPage'), 'TransfersPage'),
  NewContactPage: lazyNamed(() => import('./contacts/NewContactPage'), 'NewContactPage'),
  ContactDetailPage: lazyNamed(() => import('./contacts/ContactDetailPage'), 'ContactDetailPage'),
  TeamPage: lazyNamed(team, 'TeamPage'),
  TeamMemberPage: lazyNamed(team, 'TeamMemberPage'),
  CalendarPage: lazyNamed(() => import('./calendar/CalendarPage'), 'CalendarPage'),
  SoaRequestsPage: lazyNamed(() => import('./soa/SoaRequestsPage'), 'SoaRequestsPage'),
  UsersPage: lazyNamed(() => import('./admin/UsersPage'), 'UsersPage'),
  FeatureFlagsPage: lazyNamed(() => import('./admin/FeatureFlagsPage'), 'FeatureFlagsPage'),
  SsoPage: lazyNamed(() => import('./admin/SsoPage'), 'SsoPage'),
  SecurityLogPage: lazyNamed(() => import('./admin/SecurityLogPage'), 'SecurityLogPage'),
  SignupsPage: lazyNamed(() => import('./admin/SignupsPage'), 'SignupsPage'),
  OfficeLocationsPage: lazyNamed(() => import('./admin/OfficeLocationsPage'), 'OfficeLocationsPage'),
  StatusesAdminPage: lazyNamed(lookupPages, 'StatusesAdminPage'),
  AgentflowAdminPage: lazyNamed(lookupPages, 'AgentflowAdminPage'),
  SourcesAdminPage: lazyNamed(lookupPages, 'SourcesAdminPage'),
  CarriersAdminPage: lazyNamed(lookupPages, 'CarriersAdminPage'),
  TagsAdminPage: lazyNamed(contactSets, 'TagsAdminPage'),
  GroupsAdminPage: lazyNamed(contactSets, 'GroupsAdminPage'),
  PoolsAdminPage: lazyNamed(contactSets, 'PoolsAdminPage'),
  PlansAdminPage: lazyNamed(() => import('./admin/plans/PlansAdminPage'), 'PlansAdminPage'),
  EmailManagementPage: lazyNamed(() => import('./admin/email/EmailManagementPage'), 'EmailManagementPage'),
  EmailTemplatePage: lazyNamed(() => import('./admin/email/EmailTemplatePage'), 'EmailTemplatePage'),
  CampaignTriggersPage: lazyNamed(() => import('./admin/email/CampaignTriggersPage'), 'CampaignTriggersPage'),
  AdminOrdersPage: lazyNamed(() => import('./store/AdminOrdersPage'), 'AdminOrdersPage'),
  ImportsPage: lazyNamed(() => import('./imports/ImportsPage'), 'ImportsPage'),
  ImportWizardPage: lazyNamed(() => import('./imports/ImportWizardPage'), 'ImportWizardPage'),
  ImportResultPage: lazyNamed(() => import('./imports/ImportResultPage'), 'ImportResultPage'),
  WalletPage: lazyNamed(() => import('./wallet/WalletPage'), 'WalletPage'),
  ReceiptPage: lazyNamed(() => import('./wallet/ReceiptPage'), 'ReceiptPage'),
  SmsInboxPage: lazyNamed(() => import('./sms/SmsInboxPage'), 'SmsInboxPage'),
  DevPhonePage: lazyNamed(() => import('./sms/DevPhonePage'), 'DevPhonePage'),
  PlansPage: lazyNamed(() => import('./plans/PlansPage'), 'PlansPage'),
};

export type AppPageName = keyof typeof APP_PAGES;
