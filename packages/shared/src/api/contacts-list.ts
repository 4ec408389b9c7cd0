/**
 * The /v1 contract of the contacts list and the bulk actions (issue 4, list half): the contacts scope of crm-core §3,
 * selections, list rows, transfer attempts and quick filters. Shared so the browser builds the same bodies the
 * server validates.
 */
import { z } from 'zod';
import { MAX_EXPORT_LIMIT, MAX_TRANSFER_LIMIT, TRANSFER_PAGE_SIZE } from '../constants.js';
import { PageMeta } from './paging.js';
import { TagInput } from './tag-input.js';

/** Largest page the list answers; more is a 422, not a silent cap. */
export const CONTACTS_MAX_LIMIT = 500;
export const CONTACTS_DEFAULT_LIMIT = 50;
/** Page numbers (OFFSET) are accepted up to this many rows deep; deeper reading goes through the cursor. */
export const CONTACTS_MAX_OFFSET = 10_000;
/** select_first_last hands back ids; at most this many in one answer. */
export const SELECT_FIRST_LAST_MAX = 10_000;

/**
 * Filter fields the `search` array accepts, and how each compares. Frozen, and read by the server with own-key
 * checks only (`Object.hasOwn`), so `constructor` or `__proto__` never name a field.
 */
export const CONTACT_FILTER_FIELDS = Object.freeze({
  first_name: 'contains',
  last_name: 'contains',
  email: 'contains',
  city: 'contains',
  address: 'contains',
  county: 'contains',
  phone: 'phone',
  state: 'equals',
  zip: 'equals',
  type: 'equals',
  category: 'equals',
  gender: 'equals',
  language: 'equals',
  email_status: 'equals',
  status_id: 'id',
  agentflow_status_id: 'id',
  source_id: 'id',
  owner_id: 'id',
  pool_id: 'id',
  group_id: 'id',
  tag_ids: 'tags',
  is_new: 'boolean',
  created_from: 'date_from',
  created_to: 'date_to',
  updated_from: 'date_from',
  updated_to: 'date_to',
  birth_from: 'date_from',
  birth_to: 'date_to',
  birth_month: 'month',
  /** Turning 65 within this many days from today (1-366), by the Medicare date engine. */
  turning_65_within: 'turning_65',
  /** In Medigap open enrollment today ('true'), by the Medicare date engine. */
  medigap_oe: 'medigap_oe',
} as const);
export type ContactFilterField = keyof typeof CONTACT_FILTER_FIELDS;

/**
 * Columns the list can be ordered by (each keyset-paginated on (column, id)): every column the list shows but tags.
 * status, source, owner, pool and group order by the name shown (a sort over the visible set, not an index walk).
 */
export const CONTACT_ORDER_FIELDS = Object.freeze([
  'last_name',
  'first_name',
  'email',
  'phone',
  'number',
  'created_at',
  'updated_at',
  'city',
  'state',
  'zip',
  'date_of_birth',
  'type',
  'status',
  'source',
  'owner',
  'pool',
  'group',
] as const);
export type ContactOrderField = (typeof CONTACT_ORDER_FIELDS)[number];

const FilterValue = z.union([
  z.string().max(200),
  z.number(),
  z.boolean(),
  z.array(z.union([z.string().max(200), z.number()])).max(500),
  z.null(),
]);
export const SearchEntry = z.object({ field: z.string().max(64), value: FilterValue.optional() });
export type SearchEntry = z.infer<typeof SearchEntry>;

export const DuplicateScope = z.object({
  is_duplicate: z.boolean().default(false),
  first_name: z.boolean().default(true),
  last_name: z.boolean().default(true),
  address: z.boolean().default(false),
});

/**
 * The contacts scope. Unknown filter and order fields are refused by the server with the field named (they are
 * plain strings here so the 422 can say which one); `limit` above CONTACTS_MAX_LIMIT is refused, not clamped.
 */
export const ContactsScope = z.object({
  search: z.array(SearchEntry).max(50).default([]),
  q: z.string().max(200).optional(),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).default(CONTACTS_DEFAULT_LIMIT),
  /** Opaque keyset position from meta.next_cursor; wins over `page`. */
  cursor: z.string().max(2000).nullish(),
  order: z
    .string()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(['ASC', 'DESC']))
    .default('ASC'),
  order_field: z.string().max(64).default('last_name'),
  category: z.string().max(100).nullish(),
  type: z.string().max(20).nullish(),
  all_downline: z.boolean().default(false),
  contact_group: z.enum(['all', 'deleted', 'downline']).default('all'),
  pool_id: z.union([z.literal('mine'), z.coerce.number().int().positive()]).default('mine'),
  downline_user_id: z.coerce.number().int().positive().nullish(),
  select_n: z.coerce.number().int().positive().nullish(),
  representer_type: z.enum(['duplicate_merge']).nullish(),
  duplicate: DuplicateScope.nullish(),
});
export type ContactsScopeInput = z.input<typeof ContactsScope>;
export type ContactsScope = z.output<typeof ContactsScope>;

const Ref = z.object({ id: z.number(), name: z.string() }).nullable();
export const ListTagRef = z.object({ id: z.number(), name: z.string(), color: z.string() });

export const ContactListRow = z.object({
  id: z.number(),
  number: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zip: z.string().nullable(),
  type: z.string(),
  category: z.string().nullable(),
  date_of_birth: z.string().nullable(),
  is_new: z.boolean(),
  owner: Ref,
  status: z.object({ id: z.number(), name: z.string(), color: z.string() }).nullable(),
  source: Ref,
  pool: Ref,
  group: Ref,
  tags: z.array(ListTagRef),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
  /** Set in the duplicate lookup: rows with the same key are duplicates of each other. */
  duplicate_key: z.string().optional(),
});
export type ContactListRow = z.infer<typeof ContactListRow>;

/**
 * A page carries no count (it would cost more than the page at a million contacts): `has_more` and `next_cursor`
 * page forward; the count comes from PATCH /v1/contacts/count.
 */
export const ContactListMeta = z.object({
  current_page: z.number(),
  limit: z.number(),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});
export const ContactListReply = z.object({ data: z.array(ContactListRow), meta: ContactListMeta });
export type ContactListReply = z.infer<typeof ContactListReply>;

/**
 * PATCH /v1/contacts/count (DECIDED, docs/decisions/contacts-count-route.md): the number of contacts a scope
 * matches. `exact: false` means an estimate from a sample, within `margin` (a fraction, e.g. 0.02 for +-2%) at 99%
 * confidence; shown as "about N".
 */
export const ContactCountReply = z.object({
  count: z.number(),
  exact: z.boolean(),
  margin: z.number().nullable(),
});
export type ContactCountReply = z.infer<typeof ContactCountReply>;

/** A bulk selection: chosen ids, or every contact matching a scope (not just the page). */
export const Selection = z
  .object({
    ids: z.array(z.coerce.number().int().positive()).max(MAX_EXPORT_LIMIT).optional(),
    all: z.boolean().default(false),
    contacts_scope: ContactsScope.partial().optional(),
  })
  .refine((s) => s.all || (s.ids && s.ids.length > 0), { message: 'choose ids or all', path: ['ids'] });
export type SelectionInput = z.input<typeof Selection>;

export const SelectedItemsBody = z.object({
  ids: z.array(z.coerce.number().int().positive()).max(MAX_EXPORT_LIMIT).optional(),
  all: z.boolean().default(false),
  contacts_scope: ContactsScope.partial().optional(),
  limit: z.coerce.number().int().min(0).max(CONTACTS_MAX_LIMIT).default(50),
});
export const SelectedItemsReply = z.object({ count: z.number(), ids: z.array(z.number()) });
export type SelectedItemsReply = z.infer<typeof SelectedItemsReply>;

export const BulkReply = z.object({ count: z.number() });

/** What the bulk routes take: chosen ids, or `all` the contacts of a scope (its raw form, resolved by the server). */
const SelectionFields = {
  ids: z.array(z.coerce.number().int().positive()).max(MAX_EXPORT_LIMIT).optional(),
  all: z.boolean().default(false),
  contacts_scope: z.record(z.string(), z.unknown()).optional(),
};
export const SelectionBody = z.object(SelectionFields);
export const SelectFirstLastBody = z.object({
  contacts_scope: z.record(z.string(), z.unknown()).optional(),
  select_n: z.coerce.number().int().positive(),
  position: z.enum(['first', 'last']).default('first'),
});
export const UpdateGroupBody = z.object({
  ...SelectionFields,
  group_id: z.coerce.number().int().positive().nullable(),
});
export const UpdateTagsGroupBody = z.object({
  ...SelectionFields,
  tags: z.array(TagInput).min(1).max(50),
  action: z.enum(['add', 'remove']).default('add'),
});
export const UpdateTagsSingleBody = z.object({
  id: z.coerce.number().int().positive(),
  tags: z.array(TagInput).max(100),
});
export const ExportParams = z.object({ format: z.enum(['csv', 'xlsx']) });
/** Chosen ids come in the list's order on screen when these say it (`all` uses its scope's order). */
export const ExportBody = SelectionBody.extend({
  order: z.enum(['ASC', 'DESC']).optional(),
  order_field: z.string().optional(),
});

export const TransferBody = z.object({
  to_user_id: z.coerce.number().int().positive().nullish(),
  to_pool_id: z.coerce.number().int().positive().nullish(),
});

export const TransferAttempt = z.object({
  id: z.number(),
  status: z.string(),
  reverted: z.boolean(),
  reverting: z.boolean(),
  total: z.number(),
  processed: z.number(),
  error: z.string().nullable(),
  created_by: Ref,
  to_user: Ref,
  to_pool: Ref,
  created_at: z.string(),
  updated_at: z.string(),
  completed_at: z.string().nullable(),
});
export type TransferAttempt = z.infer<typeof TransferAttempt>;

export const TransferAttemptList = z.object({ data: z.array(TransferAttempt), meta: PageMeta });
export type TransferAttemptList = z.infer<typeof TransferAttemptList>;

export const TransferLog = z.object({
  id: z.number(),
  contact: z.object({ id: z.number(), number: z.number(), name: z.string() }).nullable(),
  from_user: Ref,
  to_user: Ref,
  from_pool_id: z.number().nullable(),
  /** This contact was put back by the attempt's revert (false for one someone moved again meanwhile). */
  reverted: z.boolean(),
  created_at: z.string(),
});
export const TransferLogList = z.object({ data: z.array(TransferLog), meta: PageMeta });
export type TransferLogList = z.infer<typeof TransferLogList>;
export type TransferLog = z.infer<typeof TransferLog>;

export const QuickFilter = z.object({
  id: z.number(),
  name: z.string(),
  data: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type QuickFilter = z.infer<typeof QuickFilter>;
export const QuickFilterBody = z.object({
  name: z.string().trim().min(1).max(100),
  data: z.record(z.string(), z.unknown()).default({}),
});
export const QuickFilterList = z.array(QuickFilter);
export const QuickFilterChange = z
  .strictObject({
    name: QuickFilterBody.shape.name.optional(),
    data: z.record(z.string(), z.unknown()).optional(),
  })
  // An empty change would be an UPDATE with nothing to set.
  .refine((b) => b.name !== undefined || b.data !== undefined, {
    message: 'Give a name or data to change',
    path: ['name'],
  });

const TransferSelectionFields = {
  // The spec's own limit answers before anything else (and the body limit leaves room for it: body-limit.ts).
  ids: z
    .array(z.coerce.number().int().positive())
    .max(MAX_TRANSFER_LIMIT, `at most ${MAX_TRANSFER_LIMIT} contacts can be transferred at once`)
    .optional(),
  all: z.boolean().default(false),
  contacts_scope: z.record(z.string(), z.unknown()).optional(),
};
export const TransferGroupBody = z.object({
  ...TransferSelectionFields,
  to_user_id: z.coerce.number().int().positive().nullish(),
  to_pool_id: z.coerce.number().int().positive().nullish(),
});
export const UpdateTransferGroupBody = z.object({ transfer_attempt_id: z.coerce.number().int().positive() });
export const TransferAttemptsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(TRANSFER_PAGE_SIZE),
  page: z.coerce.number().int().min(1).default(1),
  order_field: z.string().default('id'),
  order: z
    .string()
    .toUpperCase()
    .pipe(z.enum(['ASC', 'DESC']))
    .default('DESC'),
  q: z.string().max(100).optional(),
});
export const TransferStatus = z.object({
  id: z.number(),
  status: z.string(),
  reverted: z.boolean(),
  reverting: z.boolean(),
  processed: z.number(),
  total: z.number(),
  error: z.string().nullable(),
});
export const TransferLogsQuery = z.object({ page: z.coerce.number().int().min(1).default(1) });
export const RevertTransferBody = z.object({ revert: z.boolean().default(true) }).optional();
