import { Center, Loader } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type ComponentType, lazy, Suspense, useEffect, useLayoutEffect } from 'react';
import { createBrowserRouter, Navigate, Outlet, useLocation } from 'react-router';
import { beginNavigation, configureClient } from './api/client';
import { resetClientState } from './auth/userCache';
import { PublicLayout } from './layout/PublicLayout';
import type { AppPageName } from './pages/appPages';
import { RouteErrorPanel } from './pages/ErrorPanel';
import { LoginPage } from './pages/LoginPage';
import { lazyNamed } from './pages/lazyNamed';

/**
 * Every page but sign-in, and the signed-in shell, is its own chunk loaded when first shown. The sign-in page, where
 * every signed-out visit lands, is part of the entry: it downloads one file beside React and the router (its form
 * fields shared with other pages came as a dozen small chunks, ~5 kB more gzip and a second round trip) and never
 * shows a loader. The signed-in pages are named here and imported from pages/appPages.ts, fetched with the shell.
 * Budgets per route are checked after each build (scripts/check-bundle.mjs).
 */
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

const appPages = () => import('./pages/appPages');
/** A signed-in page by name: the table's chunk, then the page's, both suspending the page's own Suspense. */
const AppPage = lazy(async () => {
  const { APP_PAGES } = await appPages();
  return {
    default: function AppPage({ name }: { name: AppPageName }) {
      const Page = APP_PAGES[name];
      return <Page />;
    },
  };
});

function app(name: AppPageName) {
  return (
    <Suspense fallback={<PageLoader />}>
      <AppPage name={name} />
    </Suspense>
  );
}

// The signed-in gate (terms modal, live connection) and shell are not part of the public pages' download. The
// table of the shell's pages is asked for with the shell, so a page's own chunk is asked for as soon as it renders.
const AuthGate = lazyNamed(() => import('./auth/AuthGate'), 'AuthGate');
const AppLayout = lazyNamed(() => {
  // A failure is the page's to report (its own import of the table runs again and throws to its error element).
  appPages().catch(() => {});
  return import('./layout/AppLayout');
}, 'AppLayout');
const AdminLayout = lazyNamed(() => import('./pages/admin/AdminLayout'), 'AdminLayout');
const DevInboxPage = lazyNamed(() => import('./pages/DevInboxPage'), 'DevInboxPage');
const NotFoundRoute = lazyNamed(() => import('./pages/NotFoundRoute'), 'NotFoundRoute');
const publicPages = () => import('./pages/PublicPages');
const ContactUsPage = lazyNamed(publicPages, 'ContactUsPage');
const PrivacyPolicyPage = lazyNamed(publicPages, 'PrivacyPolicyPage');
const TermsOfUsePage = lazyNamed(publicPages, 'TermsOfUsePage');
const ResetPasswordPage = lazyNamed(() => import('./pages/ResetPasswordPage'), 'ResetPasswordPage');
const PublicSoaPage = lazyNamed(() => import('./pages/soa/PublicSoaPage'), 'PublicSoaPage');
const UnsubscribePage = lazyNamed(() => import('./pages/email/UnsubscribePage'), 'UnsubscribePage');
const ssoPages = () => import('./pages/SsoPages');
const SsoCallbackPage = lazyNamed(ssoPages, 'SsoCallbackPage');
const SsoLogoutPage = lazyNamed(ssoPages, 'SsoLogoutPage');
const SsoStartPage = lazyNamed(ssoPages, 'SsoStartPage');

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
                { index: true, element: app('DashboardPage') },
                { path: '/account/profile', element: app('ProfilePage') },
                { path: '/billing/*', element: app('BillingPage') },
                { path: '/max-plus', element: app('MaxPlusPage') },
                { path: '/store', element: app('StorePage') },
                { path: '/contacts', element: app('ContactsPage') },
                { path: '/contacts/transfers', element: app('TransfersPage') },
                { path: '/team', element: app('TeamPage') },
                { path: '/calendar', element: app('CalendarPage') },
                { path: '/soa-requests', element: app('SoaRequestsPage') },
                { path: '/team/:id', element: app('TeamMemberPage') },
                { path: '/contacts/new', element: app('NewContactPage') },
                { path: '/contacts/:number', element: app('ContactDetailPage') },
                { path: '/admin', element: <Navigate to="/admin/users" replace /> },
                {
                  element: page(AdminLayout),
                  children: [
                    { path: '/admin/users', element: app('UsersPage') },
                    { path: '/admin/feature-flags', element: app('FeatureFlagsPage') },
                    { path: '/admin/single-sign-on', element: app('SsoPage') },
                    { path: '/admin/security-log', element: app('SecurityLogPage') },
                    { path: '/admin/signups', element: app('SignupsPage') },
                    { path: '/admin/office-locations', element: app('OfficeLocationsPage') },
                    { path: '/admin/statuses', element: app('StatusesAdminPage') },
                    { path: '/admin/agentflow-statuses', element: app('AgentflowAdminPage') },
                    { path: '/admin/sources', element: app('SourcesAdminPage') },
                    { path: '/admin/carriers', element: app('CarriersAdminPage') },
                    { path: '/admin/tags', element: app('TagsAdminPage') },
                    { path: '/admin/groups', element: app('GroupsAdminPage') },
                    { path: '/admin/pools', element: app('PoolsAdminPage') },
                    { path: '/admin/plans/:product', element: app('PlansAdminPage') },
                    { path: '/admin/email-management', element: app('EmailManagementPage') },
                    { path: '/admin/email-management/new', element: app('EmailTemplatePage') },
                    { path: '/admin/email-management/:id', element: app('EmailTemplatePage') },
                    { path: '/admin/campaign-triggers', element: app('CampaignTriggersPage') },
                    { path: '/admin/orders', element: app('AdminOrdersPage') },
                  ],
                },
                { path: '/contacts/imports', element: app('ImportsPage') },
                { path: '/contacts/imports/new', element: app('ImportWizardPage') },
                { path: '/contacts/imports/:id', element: app('ImportResultPage') },
                { path: '/wallets', element: app('WalletPage') },
                { path: '/sms', element: app('SmsInboxPage') },
                { path: '/dev/phone', element: app('DevPhonePage') },
                { path: '/plans', element: app('PlansPage') },
                { path: '/plans/:product', element: app('PlansPage') },
                { path: '/wallets/receipt', element: app('ReceiptPage') },
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
