import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect } from 'react';
import { createBrowserRouter, Navigate, Outlet, useLocation } from 'react-router';
import { beginNavigation, configureClient } from './api/client';
import { AuthGate } from './auth/AuthGate';
import { resetClientState } from './auth/session';
import { AppLayout } from './layout/AppLayout';
import { PublicLayout } from './layout/PublicLayout';
import { AdminLayout } from './pages/admin/AdminLayout';
import { FeatureFlagsPage } from './pages/admin/FeatureFlagsPage';
import { GroupsAdminPage, PoolsAdminPage, TagsAdminPage } from './pages/admin/lookups/ContactSetsPages';
import {
  AgentflowAdminPage,
  CarriersAdminPage,
  SourcesAdminPage,
  StatusesAdminPage,
} from './pages/admin/lookups/pages';
import { OfficeLocationsPage } from './pages/admin/OfficeLocationsPage';
import { SecurityLogPage } from './pages/admin/SecurityLogPage';
import { SignupsPage } from './pages/admin/SignupsPage';
import { SsoPage } from './pages/admin/SsoPage';
import { UsersPage } from './pages/admin/UsersPage';
import { BillingPage } from './pages/BillingPage';
import { ContactDetailPage } from './pages/contacts/ContactDetailPage';
import { ContactsPage } from './pages/contacts/ContactsPage';
import { NewContactPage } from './pages/contacts/NewContactPage';
import { TransfersPage } from './pages/contacts/TransfersPage';
import { DashboardPage } from './pages/DashboardPage';
import { DevInboxPage } from './pages/DevInboxPage';
import { RouteErrorPanel } from './pages/ErrorPanel';
import { ImportsPage } from './pages/imports/ImportsPage';
import { ImportWizardPage } from './pages/imports/ImportWizardPage';
import { LoginPage } from './pages/LoginPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { ContactUsPage, PrivacyPolicyPage, TermsOfUsePage } from './pages/PublicPages';
import { ProfilePage } from './pages/profile/ProfilePage';
import { ResetPasswordPage } from './pages/ResetPasswordPage';
import { SsoCallbackPage, SsoLogoutPage, SsoStartPage } from './pages/SsoPages';
import { TeamMemberPage, TeamPage } from './pages/team/TeamPage';

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
            { path: '/reset-password', element: <ResetPasswordPage /> },
            { path: '/login/sso', element: <SsoStartPage /> },
            { path: '/api/auth/callback', element: <SsoCallbackPage /> },
            { path: '/sso-logout', element: <SsoLogoutPage /> },
            { path: '/contact-us', element: <ContactUsPage /> },
            { path: '/privacy-policy', element: <PrivacyPolicyPage /> },
            { path: '/terms-of-use', element: <TermsOfUsePage /> },
            { path: '/dev/inbox', element: <DevInboxPage /> },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
        {
          element: <AuthGate />,
          children: [
            {
              element: <AppLayout />,
              errorElement: <RouteErrorPanel />,
              children: [
                { index: true, element: <DashboardPage /> },
                { path: '/account/profile', element: <ProfilePage /> },
                { path: '/billing/*', element: <BillingPage /> },
                { path: '/contacts', element: <ContactsPage /> },
                { path: '/contacts/transfers', element: <TransfersPage /> },
                { path: '/team', element: <TeamPage /> },
                { path: '/team/:id', element: <TeamMemberPage /> },
                { path: '/contacts/new', element: <NewContactPage /> },
                { path: '/contacts/:number', element: <ContactDetailPage /> },
                { path: '/admin', element: <Navigate to="/admin/users" replace /> },
                {
                  element: <AdminLayout />,
                  children: [
                    { path: '/admin/users', element: <UsersPage /> },
                    { path: '/admin/feature-flags', element: <FeatureFlagsPage /> },
                    { path: '/admin/single-sign-on', element: <SsoPage /> },
                    { path: '/admin/security-log', element: <SecurityLogPage /> },
                    { path: '/admin/signups', element: <SignupsPage /> },
                    { path: '/admin/office-locations', element: <OfficeLocationsPage /> },
                    { path: '/admin/statuses', element: <StatusesAdminPage /> },
                    { path: '/admin/agentflow-statuses', element: <AgentflowAdminPage /> },
                    { path: '/admin/sources', element: <SourcesAdminPage /> },
                    { path: '/admin/carriers', element: <CarriersAdminPage /> },
                    { path: '/admin/tags', element: <TagsAdminPage /> },
                    { path: '/admin/groups', element: <GroupsAdminPage /> },
                    { path: '/admin/pools', element: <PoolsAdminPage /> },
                  ],
                },
                { path: '/contacts/imports', element: <ImportsPage /> },
                { path: '/contacts/imports/new', element: <ImportWizardPage /> },
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
