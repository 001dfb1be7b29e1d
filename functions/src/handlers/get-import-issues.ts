import { apiHandler, importJobs } from '../composition';

export const handler = apiHandler('getImportIssues', async ({ body }) => importJobs.issues(body.id, body.cursor, 100));
