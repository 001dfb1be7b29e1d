/**
 * CloudFront Function (cloudfront-js-2.0, viewer request) for the two single-page apps behind one
 * distribution. A request for a file (the last path segment has an extension) passes unchanged;
 * any other path is an app route and gets the app's index.html:
 *   /admin              -> 301 to /admin/ (the member app's relative 'admin' link lands here)
 *   /admin/, /admin/x/y -> /admin/index.html   (key admin/index.html in the admin bucket)
 *   /, /my_account      -> /index.html         (member bucket)
 * /api/* never reaches it (that behaviour has no function), but it is left alone all the same.
 * A built script or style sheet (/assets/x.js, /admin/assets/x.css) goes to its brotli form
 * (/assets/x.js.br, stored with Content-Encoding: br; shared/src/build/precompress.ts) when the
 * browser accepts brotli (`br` in Accept-Encoding, q not 0); CloudFront does not compress an
 * answer that is already encoded, and the rewritten path is its own cache key. Any other browser
 * gets the file itself, which CloudFront compresses as before.
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
    var folder = uri.substring(0, uri.length - lastSegment.length);
    var built = /[.](js|css)$/.test(lastSegment) && (folder === '/assets/' || folder === '/admin/assets/');
    if (built && acceptsBrotli(request.headers)) {
      request.uri = uri + '.br';
    }
    return request;
  }
  request.uri = uri.indexOf('/admin/') === 0 ? '/admin/index.html' : '/index.html';
  return request;
}

function acceptsBrotli(headers) {
  var header = headers && headers['accept-encoding'];
  if (!header || typeof header.value !== 'string') {
    return false;
  }
  var parts = header.value.toLowerCase().split(',');
  for (var i = 0; i < parts.length; i++) {
    var params = parts[i].split(';');
    if (params[0].trim() !== 'br') {
      continue;
    }
    for (var j = 1; j < params.length; j++) {
      var param = params[j].replace(/ /g, '');
      if (param.indexOf('q=') === 0 && Number(param.substring(2)) === 0) {
        return false;
      }
    }
    return true;
  }
  return false;
}
`;
