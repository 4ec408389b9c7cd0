/**
 * The admin's texting or dialer back office (routes.md `sms-admin`, `dialer-admin`): plans, subscriptions, orders
 * and usage, one tab each; the product is in the path (/admin/plans/sms), the tab and filters in the query.
 */
import { Stack, Tabs } from '@mantine/core';
import { Navigate, useParams, useSearchParams } from 'react-router';
import { PageHeading } from '../../../components/PageHeading';
import { isProduct, PLAN_PRODUCT_LABELS } from '../../plans/format';
import { AdminOrders } from './AdminOrders';
import { AdminSubscriptions } from './AdminSubscriptions';
import { AdminUsage } from './AdminUsage';
import { PlanCatalog } from './PlanCatalog';

const TABS = { catalog: 'Plans', subscriptions: 'Subscriptions', orders: 'Orders', usage: 'Usage' } as const;
type Tab = keyof typeof TABS;

export function PlansAdminPage() {
  const { product } = useParams();
  const [params, setParams] = useSearchParams();
  if (!isProduct(product)) return <Navigate to="/admin/plans/sms" replace />;
  const raw = params.get('tab') ?? 'catalog';
  const tab: Tab = raw in TABS ? (raw as Tab) : 'catalog';
  return (
    <Stack gap="md">
      <PageHeading title={`${PLAN_PRODUCT_LABELS[product]} plans`} section="Admin" />
      <Tabs value={tab} keepMounted={false} onChange={(v) => setParams(v && v !== 'catalog' ? { tab: v } : {})}>
        <Tabs.List aria-label={`${PLAN_PRODUCT_LABELS[product]} back office`}>
          {(Object.keys(TABS) as Tab[]).map((t) => (
            <Tabs.Tab key={t} value={t}>
              {TABS[t]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="catalog" pt="md">
          <PlanCatalog product={product} />
        </Tabs.Panel>
        <Tabs.Panel value="subscriptions" pt="md">
          <AdminSubscriptions product={product} />
        </Tabs.Panel>
        <Tabs.Panel value="orders" pt="md">
          <AdminOrders product={product} />
        </Tabs.Panel>
        <Tabs.Panel value="usage" pt="md">
          <AdminUsage product={product} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
