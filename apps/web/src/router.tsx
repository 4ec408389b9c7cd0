import { Center, Loader } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type ComponentType, lazy, Suspense, useEffect, useLayoutEffect } from 'react';
import { createBrowserRouter, Navigate, Outlet, useLocation } from 'react-router';
import { beginNavigation, configureClient } from './api/client';
import { resetClientState } from './auth/userCache';
import { PublicLayout } from './layout/PublicLayout';
import { RouteErrorPanel } from './pages/ErrorPanel';
import { LoginPage } from './pages/LoginPage';

/**
 * Every page but sign-in, and the signed-in shell, is its own chunk loaded when first shown. The sign-in page, where
 * every signed-out visit lands, is part of the entry: it downloads one file beside React and the router (its form
 * fields shared with other pages came as a dozen small chunks, ~5 kB more gzip and a second round trip) and never
 * shows a loader. Budgets per route are checked after each build (scripts/check-bundle.mjs).
 */
function lazyNamed<M, K extends keyof M>(load: () => Promise<M>, name: K) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

function PageLoader() {
  return (
    <Center py="xl">
      <Loader aria-label="Loading" />
    </Center>
  );
}

/** A lazy page inside its own Suspense: the frame around it stays while its chunk loads. */
function page(Component: ComponentType) {
  return (
    <Suspense fallback={<PageLoader />}>
      <Component />
    </Suspense>
  );
}

// The signed-in gate (terms modal, live connection) and shell are not part of the public pages' download.
const AuthGate = lazyNamed(() => import('./auth/AuthGate'), 'AuthGate');
const AppLayout = lazyNamed(() => import('./layout/AppLayout'), 'AppLayout');
const AdminLayout = lazyNamed(() => import('./pages/admin/AdminLayout'), 'AdminLayout');
const FeatureFlagsPage = lazyNamed(() => import('./pages/admin/FeatureFlagsPage'), 'FeatureFlagsPage');
const contactSets = () => import('./pages/admin/lookups/ContactSetsPages');
const GroupsAdminPage = lazyNamed(contactSets, 'GroupsAdminPage');
const PoolsAdminPage = lazyNamed(contactSets, 'PoolsAdminPage');
const TagsAdminPage = lazyNamed(contactSets, 'TagsAdminPage');
const lookupPages = () => import('./pages/admin/lookups/pages');
const AgentflowAdminPage = lazyNamed(lookupPages, 'AgentflowAdminPage');
const CarriersAdminPage = lazyNamed(lookupPages, 'CarriersAdminPage');
const SourcesAdminPage = lazyNamed(lookupPages, 'SourcesAdminPage');
const StatusesAdminPage = lazyNamed(lookupPages, 'StatusesAdminPage');
const OfficeLocationsPage = lazyNamed(() => import('./pages/admin/OfficeLocationsPage'), 'OfficeLocationsPage');
const SecurityLogPage = lazyNamed(() => import('./pages/admin/SecurityLogPage'), 'SecurityLogPage');
const SignupsPage = lazyNamed(() => import('./pages/admin/SignupsPage'), 'SignupsPage');
const SsoPage = lazyNamed(() => import('./pages/admin/SsoPage'), 'SsoPage');
const UsersPage = lazyNamed(() => import('./pages/admin/UsersPage'), 'UsersPage');
const BillingPage = lazyNamed(() => import('./pages/BillingPage'), 'BillingPage');
const MaxPlusPage = lazyNamed(() => import('./pages/billing/MaxPlusPage'), 'MaxPlusPage');
const StorePage = lazyNamed(() => import('./pages/store/StorePage'), 'StorePage');
const AdminOrdersPage = lazyNamed(() => import('./pages/store/AdminOrdersPage'), 'AdminOrdersPage');
const CalendarPage = lazyNamed(() => import('./pages/calendar/CalendarPage'), 'CalendarPage');
const ContactDetailPage = lazyNamed(() => import('./pages/contacts/ContactDetailPage'), 'ContactDetailPage');
const ContactsPage = lazyNamed(() => import('./pages/contacts/ContactsPage'), 'ContactsPage');
const NewContactPage = lazyNamed(() => import('./pages/contacts/NewContactPage'), 'NewContactPage');
const TransfersPage = lazyNamed(() => import('./pages/contacts/TransfersPage'), 'TransfersPage');
const DashboardPage = lazyNamed(() => import('./pages/DashboardPage'), 'DashboardPage');
const DevInboxPage = lazyNamed(() => import('./pages/DevInboxPage'), 'DevInboxPage');
const DevPhonePage = lazyNamed(() => import('./pages/sms/DevPhonePage'), 'DevPhonePage');
const SmsInboxPage = lazyNamed(() => import('./pages/sms/SmsInboxPage'), 'SmsInboxPage');
const ImportsPage = lazyNamed(() => import('./pages/imports/ImportsPage'), 'ImportsPage');
const ImportWizardPage = lazyNamed(() => import('./pages/imports/ImportWizardPage'), 'ImportWizardPage');
const ImportResultPage = lazyNamed(() => import('./pages/imports/ImportResultPage'), 'ImportResultPage');
const NotFoundRoute = lazyNamed(() => import('./pages/NotFoundRoute'), 'NotFoundRoute');
const publicPages = () => import('./pages/PublicPages');
const ContactUsPage = lazyNamed(publicPages, 'ContactUsPage');
const PrivacyPolicyPage = lazyNamed(publicPages, 'PrivacyPolicyPage');
const TermsOfUsePage = lazyNamed(publicPages, 'TermsOfUsePage');
const ProfilePage = lazyNamed(() => import('./pages/profile/ProfilePage'), 'ProfilePage');
const ResetPasswordPage = lazyNamed(() => import('./pages/ResetPasswordPage'), 'ResetPasswordPage');
const PublicSoaPage = lazyNamed(() => import('./pages/soa/PublicSoaPage'), 'PublicSoaPage');
const UnsubscribePage = lazyNamed(() => import('./pages/email/UnsubscribePage'), 'UnsubscribePage');
const EmailManagementPage = lazyNamed(() => import('./pages/admin/email/EmailManagementPage'), 'EmailManagementPage');
const EmailTemplatePage = lazyNamed(() => import('./pages/admin/email/EmailTemplatePage'), 'EmailTemplatePage');
const CampaignTriggersPage = lazyNamed(
  () => import('./pages/admin/email/CampaignTriggersPage'),
  'CampaignTriggersPage',
);
const SoaRequestsPage = lazyNamed(() => import('./pages/soa/SoaRequestsPage'), 'SoaRequestsPage');
const ssoPages = () => import('./pages/SsoPages');
const SsoCallbackPage = lazyNamed(ssoPages, 'SsoCallbackPage');
const SsoLogoutPage = lazyNamed(ssoPages, 'SsoLogoutPage');
const SsoStartPage = lazyNamed(ssoPages, 'SsoStartPage');
const team = () => import('./pages/team/TeamPage');
const PlansPage = lazyNamed(() => import('./pages/plans/PlansPage'), 'PlansPage');
const PlansAdminPage = lazyNamed(() => import('./pages/admin/plans/PlansAdminPage'), 'PlansAdminPage');
const ReceiptPage = lazyNamed(() => import('./pages/wallet/ReceiptPage'), 'ReceiptPage');
const WalletPage = lazyNamed(() => import('./pages/wallet/WalletPage'), 'WalletPage');
const TeamMemberPage = lazyNamed(team, 'TeamMemberPage');
const TeamPage = lazyNamed(team, 'TeamPage');

/**
 * Cancels what the previous page left in flight. Keyed on the pathname: a change of query string (a profile tab)
 * is the same page and keeps its requests.
 */
function Root() {
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  useEffect(() => {
    configureClient({ onUnauthorized: () => resetClientState(queryClient) });
  }, [queryClient]);
  // A layout effect runs before any page's passive effects, where queries start their requests; a passive
  // effect here would run after them and abort the new page's own first requests.
  useLayoutEffect(() => {
    beginNavigation(pathname);
  }, [pathname]);
  return <Outlet />;
}

export function createAppRouter() {
  const router = createBrowserRouter([
    {
      element: <Root />,
      errorElement: <RouteErrorPanel />,
      children: [
        {
          element: <PublicLayout />,
          errorElement: <RouteErrorPanel />,
          children: [
            { path: '/login', element: <LoginPage /> },
            { path: '/reset-password', element: page(ResetPasswordPage) },
            { path: '/login/sso', element: page(SsoStartPage) },
            { path: '/api/auth/callback', element: page(SsoCallbackPage) },
            { path: '/sso-logout', element: page(SsoLogoutPage) },
            { path: '/contact-us', element: page(ContactUsPage) },
            { path: '/privacy-policy', element: page(PrivacyPolicyPage) },
            { path: '/terms-of-use', element: page(TermsOfUsePage) },
            { path: '/dev/inbox', element: page(DevInboxPage) },
            { path: '/soa/:domain/:token', element: page(PublicSoaPage) },
            { path: '/unsubscribe/:token', element: page(UnsubscribePage) },
          ],
        },
        // Signed in, an unknown address keeps the app's layout; signed out, the public one.
        { path: '*', element: page(NotFoundRoute) },
        {
          element: page(AuthGate),
          children: [
            {
              element: page(AppLayout),
              errorElement: <RouteErrorPanel />,
              children: [
                { index: true, element: page(DashboardPage) },
                { path: '/account/profile', element: page(ProfilePage) },
                { path: '/billing/*', element: page(BillingPage) },
                { path: '/max-plus', element: page(MaxPlusPage) },
                { path: '/store', element: page(StorePage) },
                { path: '/contacts', element: page(ContactsPage) },
                { path: '/contacts/transfers', element: page(TransfersPage) },
                { path: '/team', element: page(TeamPage) },
                { path: '/calendar', element: page(CalendarPage) },
                { path: '/soa-requests', element: page(SoaRequestsPage) },
                { path: '/team/:id', element: page(TeamMemberPage) },
                { path: '/contacts/new', element: page(NewContactPage) },
                { path: '/contacts/:number', element: page(ContactDetailPage) },
                { path: '/admin', element: <Navigate to="/admin/users" replace /> },
                {
                  element: page(AdminLayout),
                  children: [
                    { path: '/admin/users', element: page(UsersPage) },
                    { path: '/admin/feature-flags', element: page(FeatureFlagsPage) },
                    { path: '/admin/single-sign-on', element: page(SsoPage) },
                    { path: '/admin/security-log', element: page(SecurityLogPage) },
                    { path: '/admin/signups', element: page(SignupsPage) },
                    { path: '/admin/office-locations', element: page(OfficeLocationsPage) },
                    { path: '/admin/statuses', element: page(StatusesAdminPage) },
                    { path: '/admin/agentflow-statuses', element: page(AgentflowAdminPage) },
                    { path: '/admin/sources', element: page(SourcesAdminPage) },
                    { path: '/admin/carriers', element: page(CarriersAdminPage) },
                    { path: '/admin/tags', element: page(TagsAdminPage) },
                    { path: '/admin/groups', element: page(GroupsAdminPage) },
                    { path: '/admin/pools', element: page(PoolsAdminPage) },
                    { path: '/admin/plans/:product', element: page(PlansAdminPage) },
                    { path: '/admin/email-management', element: page(EmailManagementPage) },
                    { path: '/admin/email-management/new', element: page(EmailTemplatePage) },
                    { path: '/admin/email-management/:id', element: page(EmailTemplatePage) },
                    { path: '/admin/campaign-triggers', element: page(CampaignTriggersPage) },
                    { path: '/admin/orders', element: page(AdminOrdersPage) },
                  ],
                },
                { path: '/contacts/imports', element: page(ImportsPage) },
                { path: '/contacts/imports/new', element: page(ImportWizardPage) },
                { path: '/contacts/imports/:id', element: page(ImportResultPage) },
                { path: '/wallets', element: page(WalletPage) },
                { path: '/sms', element: page(SmsInboxPage) },
                { path: '/dev/phone', element: page(DevPhonePage) },
                { path: '/plans', element: page(PlansPage) },
                { path: '/plans/:product', element: page(PlansPage) },
                { path: '/wallets/receipt', element: page(ReceiptPage) },
              ],
            },
          ],
        },
      ],
    },
  ]);
  configureClient({ navigate: (to) => void router.navigate(to) });
  return router;
}
