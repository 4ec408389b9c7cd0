/**
 * The /v1 contract: every route the browser calls, by "METHOD /v1/path/{param}", with the zod objects its server
 * route validates and serializes with. The browser imports only its types (apps/web/src/api/call.ts), so no schema
 * reaches a page's bundle; apps/server/test/contract.test.ts fails when an entry and its route drift apart.
 */
import { accountContract } from './account.js';
import { adminContract } from './admin.js';
import { broadcastsContract } from './broadcasts.js';
import { campaignTriggersContract } from './campaign-triggers.js';
import { consentContract } from './consent.js';
import { contactRecordsContract } from './contact-records.js';
import { contactsContract } from './contacts.js';
import type { BodyIn, CallInput, Endpoint, QueryIn, ReplyOf } from './define.js';
import { devContract } from './dev.js';
import { dialerContract } from './dialer.js';
import { dialerAdminContract } from './dialer-admin.js';
import { emailsContract } from './emails.js';
import { eventsContract } from './events.js';
import { importsContract } from './imports.js';
import { lookupsContract } from './lookups.js';
import { maxPlusContract } from './max-plus.js';
import { officeLocationsContract } from './office-locations.js';
import { sessionContract } from './session.js';
import { smsContract } from './sms.js';
import { smsAdminContract } from './sms-admin.js';
import { soaContract } from './soa.js';
import { storeContract } from './store.js';
import { transfersContract } from './transfers.js';
import { usersContract } from './users.js';
import { walletContract } from './wallet.js';

export * from './define.js';

export const contract = {
  ...accountContract,
  ...adminContract,
  ...broadcastsContract,
  ...campaignTriggersContract,
  ...consentContract,
  ...contactRecordsContract,
  ...contactsContract,
  ...devContract,
  ...dialerContract,
  ...dialerAdminContract,
  ...emailsContract,
  ...eventsContract,
  ...importsContract,
  ...lookupsContract,
  ...maxPlusContract,
  ...officeLocationsContract,
  ...sessionContract,
  ...smsContract,
  ...smsAdminContract,
  ...soaContract,
  ...storeContract,
  ...transfersContract,
  ...usersContract,
  ...walletContract,
};

export type Contract = typeof contract;
export type ContractKey = keyof Contract;
/** The inputs of a call to `K` (`params`, `query`, `body`, each only when the route takes it). */
export type InputOf<K extends ContractKey> = CallInput<K, Contract[K]>;
/** The body a call to `K` sends. */
export type BodyOf<K extends ContractKey> = BodyIn<Contract[K]>;
/** The query string a call to `K` takes. */
export type QueryOf<K extends ContractKey> = Contract[K] extends { query: infer Q } ? QueryIn<Q> : undefined;
/** What a call to `K` resolves to. */
export type Reply<K extends ContractKey> = ReplyOf<Contract[K]>;
/** Every entry, for checks that walk the whole contract. */
export const contractEntries = (): [ContractKey, Endpoint][] => Object.entries(contract) as [ContractKey, Endpoint][];
