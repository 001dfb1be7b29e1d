import { dynamoImports } from '../adapters/dynamo-imports';
import { apiHandler } from '../lib/api-handler';
import { withCursor } from '../lib/products/errors';

export const handler = apiHandler('getImportIssues', async ({ body }) =>
  withCursor(() => dynamoImports.issues(body.id, body.cursor, 100)),
);
