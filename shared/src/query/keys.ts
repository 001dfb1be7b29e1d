/**
 * Every TanStack Query key of both apps, in one place. Keys are arrays from the general to the
 * particular, so that invalidating a prefix (`approvedProducts.all`) reaches every list and
 * detail under it.
 */
export const queryKeys = {
  approvedProducts: {
    all: ['approvedProducts'] as const,
    lists: () => [...queryKeys.approvedProducts.all, 'list'] as const,
    list: (pageSize: number) => [...queryKeys.approvedProducts.lists(), { pageSize }] as const,
    detail: (id: string) => [...queryKeys.approvedProducts.all, 'detail', id] as const,
  },
  importedProducts: {
    all: ['importedProducts'] as const,
    /** The review queue: products waiting for approval. */
    reviewLists: () => [...queryKeys.importedProducts.all, 'review'] as const,
    reviewList: (pageSize: number) => [...queryKeys.importedProducts.reviewLists(), { pageSize }] as const,
    detail: (id: string) => [...queryKeys.importedProducts.all, 'detail', id] as const,
  },
  /** The admin's catalogue lists (approved, banned, withdrawn) by search. */
  adminCatalogue: {
    all: ['adminCatalogue'] as const,
    list: (list: string, search: string) => [...queryKeys.adminCatalogue.all, list, search] as const,
    /** A banned or withdrawn product's cancelling of its open checkouts (issue 38). */
    checkoutCancels: (id: string) => [...queryKeys.adminCatalogue.all, 'checkoutCancels', id] as const,
  },
  /** The admin home's figures. */
  adminSummary: ['adminSummary'] as const,
  importJobs: {
    all: ['importJobs'] as const,
    detail: (id: string) => [...queryKeys.importJobs.all, id] as const,
    issues: (id: string) => [...queryKeys.importJobs.detail(id), 'issues'] as const,
  },
  /** The admin's order lists ('all', 'not_ordered', …). */
  orders: {
    all: ['orders'] as const,
    list: (list: string) => [...queryKeys.orders.all, 'list', list] as const,
  },
  /** The admin's commission lists ('all', 'to_stripe', 'to_be_paid') and the top earners. */
  /** The commission rules, member groups and their audit log (issue 39). */
  commissionRules: {
    all: ['commissionRules'] as const,
    programme: () => [...queryKeys.commissionRules.all, 'programme'] as const,
    audit: () => [...queryKeys.commissionRules.all, 'audit'] as const,
    members: (groupId: string) => [...queryKeys.commissionRules.all, 'members', groupId] as const,
  },
  payouts: {
    all: ['payouts'] as const,
    list: (list: string) => [...queryKeys.payouts.all, 'list', list] as const,
    topEarners: () => [...queryKeys.payouts.all, 'topEarners'] as const,
    memberCard: (memberId: string) => [...queryKeys.payouts.all, 'memberCard', memberId] as const,
    /** What members still owe after clawbacks (getMemberDebts, every page). */
    debts: () => [...queryKeys.payouts.all, 'debts'] as const,
  },
} as const;
