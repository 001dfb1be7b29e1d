/** Rows per page of the admin's orders and payouts lists (the server's default page). */
export const SALES_PAGE_SIZE = 100;
