// The opened screen's first requests, sent as the page arrives, before the app's script has
// (issue 16). A plain file, not inline: the Content-Security-Policy allows scripts from 'self'
// only. The app takes these answers instead of asking again (shared/src/ui/earlyRequests.tsx:
// same names and bodies as its own first calls); nothing here is shown or trusted before the app
// has checked it as it checks any answer. Once the data's answer names the first picture, that
// picture is preloaded at high priority, so it loads while the app renders. Both apps' pages load
// this file (the admin app is on the same origin, under /admin/), so it knows both apps' screens.
(function () {
  'use strict';
  // The app has started first (its script came from the cache): it asks for itself.
  if (window.__portalEarly || !window.fetch) return;
  var path = location.pathname.replace(/\/+$/, '') || '/';
  var params = new URLSearchParams(location.search);
  var early = (window.__portalEarly = {});

  function send(name, body, token) {
    var headers = { accept: 'application/json', 'content-type': 'application/json' };
    if (token) headers.authorization = 'Bearer ' + token;
    return fetch('/api/' + name, {
      method: 'POST',
      headers: headers,
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
  }

  function keyOf(name, body) {
    return name === 'checkAuth' ? name : name + ' ' + JSON.stringify(body);
  }

  function post(name, body) {
    var request = send(name, body);
    // Not taken (the page left first): a failed request is nobody's error.
    request.catch(function () {});
    return (early[keyOf(name, body)] = request);
  }

  function json(request) {
    return request.then(function (response) {
      return response.ok ? response.clone().json() : null;
    });
  }

  function preloadImage(url) {
    if (typeof url !== 'string' || !url) return;
    var link = document.createElement('link');
    link.rel = 'preload';
    link.setAttribute('as', 'image');
    link.setAttribute('href', url);
    link.setAttribute('fetchpriority', 'high');
    // As the app's <img> asks (ProductImage), so the browser reuses this download for it.
    link.setAttribute('referrerpolicy', 'no-referrer');
    document.head.appendChild(link);
  }

  // The data request is registered at once, so the app's call finds it however fast the app is;
  // it leaves when the session check answers, with that answer's access token (the one the app's
  // call carries too). Without a session it is withdrawn: the app sends no such call then.
  // firstImage, when given, names the answer's first picture, which is then preloaded.
  function afterSession(name, body, firstImage) {
    var key = keyOf(name, body);
    var data = json(post('checkAuth', {})).then(function (session) {
      if (!session || typeof session.access_token !== 'string') {
        delete early[key];
        throw new Error('No session.');
      }
      return send(name, body, session.access_token);
    });
    early[key] = data;
    json(data)
      .then(function (answer) {
        if (answer && firstImage) preloadImage(firstImage(answer));
      })
      .catch(function () {
        // The app asks again, or shows the login.
      });
  }

  // The opened screen's chunks (scripts and styles), named by the build in the page's
  // <meta name="portal-screen-chunks"> (shared/src/build/preload-chunks.ts): fetched now, beside
  // the app's first script, instead of after it has run and imported them. The app's own import
  // finds them loaded; the links the page already has are not added again.
  function preloadScreen(name) {
    var meta = document.querySelector('meta[name="portal-screen-chunks"]');
    var chunks;
    try {
      chunks = meta && JSON.parse(meta.getAttribute('content') || '{}')[name];
    } catch (error) {
      return;
    }
    if (!chunks) return;
    var present = {};
    var links = document.getElementsByTagName('link');
    for (var i = 0; i < links.length; i++) present[links[i].getAttribute('href')] = true;
    function add(rel, href, as) {
      if (typeof href !== 'string' || present[href]) return;
      present[href] = true;
      var link = document.createElement('link');
      link.rel = rel;
      if (as) link.setAttribute('as', as);
      // As the app's module scripts and Vite's own preloads ask, so the browser reuses these.
      link.setAttribute('crossorigin', '');
      link.setAttribute('href', href);
      document.head.appendChild(link);
    }
    (chunks.js || []).forEach(function (href) {
      add('modulepreload', href);
    });
    (chunks.css || []).forEach(function (href) {
      add('preload', href, 'style');
    });
  }

  function safeDecode(segment) {
    try {
      return decodeURIComponent(segment);
    } catch (error) {
      return segment;
    }
  }

  var shop = /^\/shop\/([^/]+)$/.exec(path);
  if (path === '/') {
    afterSession('getApprovedProducts', { limit: 24 }, function (answer) {
      return answer.items && answer.items[0] && answer.items[0].image;
    });
  } else if (path === '/member_product_detail') {
    var id = (params.get('id') || '').trim();
    if (id) {
      afterSession('getApprovedProduct', { id: id }, function (answer) {
        return answer.images && answer.images[0];
      });
    }
    // After the data's request: the picture waits on its answer, the screen's code less long.
    preloadScreen('detail');
  } else if (path === '/my_account') {
    post('checkAuth', {});
  } else if (path === '/admin/orders') {
    // Orders' first page, all orders (web-admin/src/sales/queries.ts, SALES_PAGE_SIZE).
    afterSession('getOrders', { limit: 100, type: 'all' });
  } else if (path === '/admin/product_import') {
    // The review list's first page (shared/src/query/catalogue.ts, REVIEW_PAGE_SIZE).
    afterSession('getUnApprovedProducts', { limit: 24 }, function (answer) {
      return answer.items && answer.items[0] && answer.items[0].image;
    });
  } else if (path === '/admin' || path.indexOf('/admin/') === 0) {
    // Every admin screen starts with the session check.
    post('checkAuth', {});
  } else if (shop) {
    var body = { id: safeDecode(shop[1]) };
    var ref = params.get('ref');
    if (ref) body.ref = ref;
    json(post('getSharedProduct', body))
      .then(function (answer) {
        if (answer && answer.product) preloadImage(answer.product.images && answer.product.images[0]);
      })
      .catch(function () {
        // The app asks again and shows what went wrong.
      });
    preloadScreen('shop');
  }
})();
