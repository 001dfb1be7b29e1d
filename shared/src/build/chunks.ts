/**
 * How both apps' scripts are cut into chunks (issue 16, issue 26): the libraries each in a file of
 * their own, fetched in parallel with the app's entry, and the API's schemas with zod in one
 * chunk that no first screen loads. Rolldown's `codeSplitting.groups`.
 *
 * - `api`: the API's schemas and zod (everything under shared/src/api but the client, which the
 *   entry carries) are one chunk, not six small ones: the screens that check a form load it, and
 *   each request is one more in the queue. No first screen needs it: a production build does not
 *   check answers (shared/src/api/client.ts).
 * - `react` (React, React DOM, the scheduler) first, so the router's group does not take it in.
 *   The bundler's runtime and Vite's preload helper, which every page loads too, ride with React:
 *   alone they were two more requests of half a kilobyte each before the first paint, each
 *   waiting its turn for one of the browser's six connections and carrying a kilobyte of headers.
 * - `router`, `query`: React Router and TanStack Query.
 */
export const appChunkGroups = [
  { name: 'api', test: /[\\/](shared[\\/]src[\\/]api[\\/](?!client)[^\\/]+\.ts|node_modules[\\/]zod[\\/])/ },
  {
    name: 'react',
    test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]|^\0(rolldown\/runtime|vite\/preload-helper)/,
    priority: 2,
  },
  { name: 'router', test: /[\\/]node_modules[\\/]react-router(-dom)?[\\/]/, priority: 1 },
  { name: 'query', test: /[\\/]node_modules[\\/]@tanstack[\\/]/, priority: 1 },
];
