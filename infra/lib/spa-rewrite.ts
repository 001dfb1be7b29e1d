/**
 * CloudFront Function (cloudfront-js-2.0, viewer request) for the two single-page apps behind one
 * distribution. A request for a file (the last path segment has an extension) passes unchanged;
 * any other path is an app route and gets the app's index.html:
 *   /admin              -> 301 to /admin/ (the member app's relative 'admin' link lands here)
 *   /admin/, /admin/x/y -> /admin/index.html   (key admin/index.html in the admin bucket)
 *   /, /my_account      -> /index.html         (member bucket)
 * /api/* never reaches it (that behaviour has no function), but it is left alone all the same.
 * Written in plain ES5 so it runs on any CloudFront Functions runtime.
 */
export const spaRewriteSource = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  if (uri === '/api' || uri.indexOf('/api/') === 0) {
    return request;
  }
  if (uri === '/admin') {
    return { statusCode: 301, statusDescription: 'Moved Permanently', headers: { location: { value: '/admin/' } } };
  }
  var lastSegment = uri.substring(uri.lastIndexOf('/') + 1);
  if (lastSegment.indexOf('.') !== -1) {
    return request;
  }
  request.uri = uri.indexOf('/admin/') === 0 ? '/admin/index.html' : '/index.html';
  return request;
}
`;
