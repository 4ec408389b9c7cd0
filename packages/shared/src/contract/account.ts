import { AccountInfo, AccountPlanList, BillingHistory, ConnectCardBody, PageQuery, UpdatePlanBody } from '../index.js';
import { defineContract } from './define.js';

export const accountContract = defineContract({
  'GET /v1/accounts/info': { reply: AccountInfo },
  'POST /v1/accounts/connect_card': { body: ConnectCardBody, reply: AccountInfo },
  'POST /v1/accounts/update_plan': { body: UpdatePlanBody, reply: AccountInfo },
  'GET /v1/accounts/history': { query: PageQuery, reply: BillingHistory },
  'PUT /v1/accounts/cancel_subscription': { reply: AccountInfo },
  'GET /v1/plans': { reply: AccountPlanList },
});
