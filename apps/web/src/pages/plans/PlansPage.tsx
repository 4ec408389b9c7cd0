/**
 * Texting and dialer plans for everyone (issues 12 and 13): what covers me and my month, plans to buy, my
 * subscriptions, my team's licences (managers hand them out by name and set allocations) and orders. The product
 * and the tab live in the address (/plans/sms?tab=licences), so a reload or a shared link opens the same view.
 */
import { can, type PlanProduct } from '@harbor/shared';
import { Alert, Group, SegmentedControl, Stack, Tabs } from '@mantine/core';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { useCurrentUser } from '../../auth/session';
import { PageHeading } from '../../components/PageHeading';
import { subjectOf } from '../../layout/nav';
import { isProduct, PLAN_PRODUCT_LABELS, productTitle } from './format';
import { LicencesTab } from './LicencesTab';
import { OrdersTab } from './OrdersTab';
import { Overview } from './Overview';
import { SubscriptionsTab } from './SubscriptionsTab';

const TABS = ['overview', 'subscriptions', 'licences', 'orders'] as const;
type Tab = (typeof TABS)[number];
const TAB_LABELS: Record<Tab, string> = {
  overview: 'My plan',
  subscriptions: 'Subscriptions',
  licences: 'Licences',
  orders: 'Orders',
};

export function usePlanProducts(): PlanProduct[] {
  const subject = subjectOf(useCurrentUser());
  return (['sms', 'dialer'] as const).filter((p) =>
    p === 'sms' ? can(subject, 'sms.use') && subject.features.sms_campaigns : can(subject, 'dialer.use'),
  );
}

export function PlansPage() {
  const { product } = useParams();
  const products = usePlanProducts();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  if (!isProduct(product)) return <Navigate to={`/plans/${products[0] ?? 'sms'}`} replace />;
  const tab = (TABS as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as Tab) : 'overview';
  const allowed = products.includes(product);
  return (
    <Stack gap="md">
      <Group justify="space-between" align="center" wrap="wrap" gap="sm">
        <PageHeading title={productTitle(product)} />
        {products.length > 1 && (
          <SegmentedControl
            aria-label="Product"
            value={product}
            onChange={(v) => navigate(`/plans/${v}${tab === 'overview' ? '' : `?tab=${tab}`}`)}
            data={products.map((p) => ({ value: p, label: PLAN_PRODUCT_LABELS[p] }))}
          />
        )}
      </Group>
      {!allowed ? (
        <Alert color="yellow" title={`${PLAN_PRODUCT_LABELS[product]} is not available`}>
          {product === 'sms'
            ? 'Texting is turned off for your account, or is not part of a basic account. Ask your administrator.'
            : 'The dialer is turned off for your account. Ask your administrator.'}
        </Alert>
      ) : (
        <Tabs
          value={tab}
          onChange={(v) => {
            const next = new URLSearchParams(params);
            if (!v || v === 'overview') next.delete('tab');
            else next.set('tab', v);
            for (const k of ['page', 'q', 'mine', 'active', 'subscription']) next.delete(k);
            setParams(next);
          }}
          keepMounted={false}
        >
          <Tabs.List aria-label={`${PLAN_PRODUCT_LABELS[product]} plan sections`}>
            {TABS.map((t) => (
              <Tabs.Tab key={t} value={t}>
                {TAB_LABELS[t]}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Tabs.Panel value="overview" pt="md">
            <Overview product={product} />
          </Tabs.Panel>
          <Tabs.Panel value="subscriptions" pt="md">
            <SubscriptionsTab product={product} />
          </Tabs.Panel>
          <Tabs.Panel value="licences" pt="md">
            <LicencesTab product={product} />
          </Tabs.Panel>
          <Tabs.Panel value="orders" pt="md">
            <OrdersTab product={product} />
          </Tabs.Panel>
        </Tabs>
      )}
    </Stack>
  );
}
