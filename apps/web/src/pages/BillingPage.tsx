/**
 * /billing and its steps (/billing/plan, /billing/review, /billing/update): the account's Harbor plan, the card on
 * file and the billing history. The access guard sends an unpaid account here; paying lets them in.
 */
import { Route, Routes } from 'react-router';
import { BillingOverview } from './billing/BillingOverview';
import { ChoosePlan } from './billing/ChoosePlan';
import { ReviewPlan } from './billing/ReviewPlan';
import { UpdateCard } from './billing/UpdateCard';

export function BillingPage() {
  return (
    <Routes>
      <Route index element={<BillingOverview />} />
      <Route path="plan" element={<ChoosePlan />} />
      <Route path="review" element={<ReviewPlan />} />
      <Route path="update" element={<UpdateCard />} />
      <Route path="*" element={<BillingOverview />} />
    </Routes>
  );
}
