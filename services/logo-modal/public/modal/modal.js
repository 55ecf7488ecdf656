// The logo configurator modal (spec 3). Plain browser JavaScript, no framework: it reads the URL
// parameters, draws the product with its print area, uploads the logo, and talks to the parent
// window only through the four documented messages, only to an allow-listed origin.
(function () {
  'use strict';

  var config = JSON.parse(document.getElementById('modal-config').textContent);
  var params = new URLSearchParams(location.search);
  var $ = function (id) {
    return document.getElementById(id);
  };

  var state = {
    data: null,
    transactionId: null,
    logo: null, // { aspect, objectUrl, colors }
    placement: { scale: 0.7, x: 0.5, y: 0.5 },
    busy: false,
    done: false,
  };

  // --- Messages to the parent -------------------------------------------------------------
  var parentWindow = window.parent !== window ? window.parent : window.opener;
  function parentOrigin() {
    if (location.ancestorOrigins && location.ancestorOrigins.length > 0) return location.ancestorOrigins[0];
    try {
      return document.referrer ? new URL(document.referrer).origin : null;
    } catch (e) {
      return null;
    }
  }
  var targetOrigin = parentOrigin();
  // The allow-list, plus our own origin: a same-origin parent is a page of this service (the demo shop).
  var mayPost =
    !!parentWindow &&
    !!targetOrigin &&
    (config.allowedOrigins.indexOf(targetOrigin) !== -1 || targetOrigin === location.origin);
  function post(message) {
    // Never '*': the payload carries file links, so it goes to the allow-listed parent or nowhere.
    if (mayPost) parentWindow.postMessage(message, targetOrigin);
  }

  // --- Helpers ------------------------------------------------------------------------------
  function setStatus(text, isError) {
    var el = $('status');
    el.textContent = text || '';
    el.className = isError ? 'status error' : 'status';
  }
  function api(path, options) {
    return fetch(path, options).then(function (res) {
      return res.text().then(function (text) {
        var body = text ? JSON.parse(text) : {};
        if (!res.ok) throw new Error(body.message || 'Request failed (' + res.status + ')');
        return body;
      });
    });
  }
  function option(value, label) {
    var o = document.createElement('option');
    o.value = value;
    o.textContent = label;
    return o;
  }
  function clamp(v, lo, hi) {
    return Math.min(hi, Math.max(lo, v));
  }

  // --- Selection ----------------------------------------------------------------------------
  function selectedTechnique() {
    var code = $('technique').value;
    return state.data.techniques.find(function (t) {
      return t.code === code;
    });
  }
  function selectedPosition() {
    var t = selectedTechnique();
    if (!t) return null;
    var code = $('position').value;
    return (
      t.positions.find(function (p) {
        return p.code === code;
      }) || t.positions[0]
    );
  }
  function selectedVariant() {
    var code = $('variant').value;
    return (
      state.data.variants.find(function (v) {
        return v.variantCode === code;
      }) || null
    );
  }

  /** Spec 3: a variant SKU in `sku` wins, then `variant` (variantCode), then `color` (colorName). */
  function preselectVariant(data) {
    if (data.variantFromSku) return data.variantFromSku;
    var wanted = params.get('variant');
    if (wanted) {
      var byCode = data.variants.find(function (v) {
        return v.variantCode === wanted || v.variantCode.split('.')[1] === wanted.replace(/^\./, '');
      });
      if (byCode) return byCode.variantCode;
    }
    var color = (params.get('color') || '').trim().toLowerCase();
    if (color) {
      var byColor = data.variants.find(function (v) {
        return v.colorName.toLowerCase() === color;
      });
      if (byColor) return byColor.variantCode;
    }
    return '';
  }

  /** Only a technique with coordinates for this product is preselected; otherwise the default. */
  function preselectTechnique(data) {
    var wanted = (params.get('technique') || '').trim().toLowerCase();
    var match =
      wanted &&
      data.techniques.find(function (t) {
        return t.code.toLowerCase() === wanted;
      });
    if (match) return match.code;
    var def =
      data.techniques.find(function (t) {
        return t.isDefault;
      }) || data.techniques[0];
    return def ? def.code : '';
  }

  function fillPositions() {
    var t = selectedTechnique();
    var sel = $('position');
    var previous = sel.value;
    sel.innerHTML = '';
    (t ? t.positions : []).forEach(function (p) {
      sel.appendChild(option(p.code, p.name));
    });
    if (
      previous &&
      t &&
      t.positions.some(function (p) {
        return p.code === previous;
      })
    )
      sel.value = previous;
    $('position-label').hidden = !t || t.positions.length < 2;
  }

  // --- Drawing ------------------------------------------------------------------------------
  /** Same arithmetic as the server's placeLogo (geometry.ts), in print-area fractions. */
  function placement(areaW, areaH) {
    var aspect = state.logo ? state.logo.aspect : 1;
    var w = areaW * clamp(state.placement.scale, 0.05, 1);
    var h = w / aspect;
    if (h > areaH) {
      h = areaH;
      w = h * aspect;
    }
    var cx = areaW * clamp(state.placement.x, 0, 1);
    var cy = areaH * clamp(state.placement.y, 0, 1);
    var x = clamp(cx - w / 2, 0, areaW - w);
    var y = clamp(cy - h / 2, 0, areaH - h);
    return { x: x, y: y, w: w, h: h };
  }

  function draw() {
    var pos = selectedPosition();
    if (!pos) return;
    var img = $('template');
    var variant = selectedVariant();
    var url = pos.template.url + (variant && variant.hex ? '?color=' + encodeURIComponent(variant.hex) : '');
    if (img.getAttribute('src') !== url) img.setAttribute('src', url);
    var shown = $('stage').clientWidth;
    var f = shown / (pos.template.width || shown);
    var area = $('print-area');
    area.style.left = pos.box.x * f + 'px';
    area.style.top = pos.box.y * f + 'px';
    area.style.width = pos.box.width * f + 'px';
    area.style.height = pos.box.height * f + 'px';
    $('print-area-text').textContent =
      'Print area: ' + pos.printArea.replace('x', ' x ') + ' mm (' + pos.name + ')';
    var logo = $('logo');
    if (state.logo) {
      var p = placement(pos.box.width * f, pos.box.height * f);
      logo.style.left = p.x + 'px';
      logo.style.top = p.y + 'px';
      logo.style.width = p.w + 'px';
      logo.style.height = p.h + 'px';
      logo.hidden = false;
    }
    $('scale-value').textContent = Math.round(state.placement.scale * 100) + '%';
    $('add-to-order').disabled = !state.logo || state.busy || state.done;
  }

  function enableDragging() {
    var logo = $('logo');
    var start = null;
    logo.addEventListener('pointerdown', function (e) {
      var area = $('print-area');
      start = {
        x: e.clientX,
        y: e.clientY,
        px: state.placement.x,
        py: state.placement.y,
        w: area.clientWidth,
        h: area.clientHeight,
      };
      logo.setPointerCapture(e.pointerId);
      e.preventDefault();
    });
    logo.addEventListener('pointermove', function (e) {
      if (!start) return;
      state.placement.x = clamp(start.px + (e.clientX - start.x) / start.w, 0, 1);
      state.placement.y = clamp(start.py + (e.clientY - start.y) / start.h, 0, 1);
      draw();
    });
    var stop = function () {
      start = null;
    };
    logo.addEventListener('pointerup', stop);
    logo.addEventListener('pointercancel', stop);
  }

  // --- Server calls -------------------------------------------------------------------------
  function selectionBody() {
    var t = selectedTechnique();
    var pos = selectedPosition();
    var v = selectedVariant();
    return {
      variantSku: v ? v.variantCode : state.data.baseSku,
      selectedColor: v ? v.colorName : '',
      techniqueCode: t ? t.code : undefined,
      quantity: Math.max(1, parseInt($('quantity').value, 10) || 1),
      logoConfig: {
        techniqueCode: t ? t.code : undefined,
        techniqueName: t ? t.name : undefined,
        position: pos ? pos.code : undefined,
        printArea: pos ? pos.printArea : undefined,
        colors: state.logo ? state.logo.colors : [],
        scale: Math.round(state.placement.scale * 1000) / 1000,
        x: Math.round(state.placement.x * 1000) / 1000,
        y: Math.round(state.placement.y * 1000) / 1000,
      },
    };
  }

  function ensureTransaction() {
    if (state.transactionId) return Promise.resolve(state.transactionId);
    var sel = selectionBody();
    var body = {
      productSku: state.data.baseSku,
      variantSku: sel.variantSku,
      selectedColor: sel.selectedColor,
      techniqueCode: sel.techniqueCode,
      techniqueName: sel.logoConfig.techniqueName,
      printArea: sel.logoConfig.printArea,
      quantity: sel.quantity,
      logoConfig: sel.logoConfig,
    };
    var basket = params.get('basket_id');
    var customer = params.get('customer_id');
    var source = params.get('source');
    var callback = params.get('callback_url') || params.get('callbackUrl');
    if (basket) body.basketId = basket;
    if (customer) body.customerId = customer;
    if (source) body.source = source;
    if (callback) body.callbackUrl = callback;
    return api('/api/transactions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(function (tx) {
      state.transactionId = tx.transaction_id;
      return tx.transaction_id;
    });
  }

  function uploadLogo(file) {
    state.busy = true;
    draw();
    setStatus('Uploading logo...');
    return ensureTransaction()
      .then(function (id) {
        var form = new FormData();
        form.append('file', file, file.name);
        return api('/api/transactions/' + id + '/logo', { method: 'POST', body: form });
      })
      .then(function (info) {
        if (state.logo && state.logo.objectUrl) URL.revokeObjectURL(state.logo.objectUrl);
        var url = URL.createObjectURL(file);
        state.logo = { aspect: info.width / info.height, objectUrl: url, colors: info.colors };
        $('logo').src = url;
        setStatus(
          'Logo uploaded (' + info.format.toUpperCase() + ', colours ' + info.colors.join(', ') + ').',
        );
      })
      .catch(function (err) {
        setStatus(err.message, true);
      })
      .then(function () {
        state.busy = false;
        draw();
      });
  }

  function addToOrder() {
    if (!state.logo || state.busy || state.done) return;
    state.busy = true;
    draw();
    setStatus('Creating screenshot and proof...');
    api('/api/transactions/' + state.transactionId + '/add-to-order', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(selectionBody()),
    })
      .then(function (payload) {
        state.done = true;
        setStatus('Added to your order.');
        var message = { type: 'SERVICE_LOGO_ADD_TO_ORDER' };
        Object.keys(payload).forEach(function (k) {
          message[k] = payload[k];
        });
        post(message);
        post({ type: 'CLOSE_MODAL' });
      })
      .catch(function (err) {
        setStatus(err.message, true);
      })
      .then(function () {
        state.busy = false;
        draw();
      });
  }

  function cancel() {
    var done = function () {
      post({ type: 'CONFIGURATION_CANCELLED' });
      post({ type: 'CLOSE_MODAL' });
    };
    // A draft nobody will order is removed with its files; a completed one belongs to the order.
    if (state.transactionId && !state.done) {
      api('/api/transactions/' + state.transactionId, { method: 'DELETE' }).then(done, done);
    } else done();
  }

  // --- Start --------------------------------------------------------------------------------
  function mount(data) {
    state.data = data;
    $('product-name').textContent = data.name;
    $('product-sku').textContent = data.baseSku + (params.get('mode') ? ' \u00b7 ' + params.get('mode') : '');
    var variant = $('variant');
    variant.appendChild(option('', '\u2014 no variant \u2014'));
    data.variants.forEach(function (v) {
      variant.appendChild(option(v.variantCode, (v.colorName || v.variantCode) + ' (' + v.variantCode + ')'));
    });
    variant.value = preselectVariant(data);
    var technique = $('technique');
    data.techniques.forEach(function (t) {
      technique.appendChild(option(t.code, t.name));
    });
    technique.value = preselectTechnique(data);
    fillPositions();
    var qty = parseInt(params.get('quantity') || '', 10);
    if (qty > 0) $('quantity').value = String(qty);
    if (data.techniques.length === 0) setStatus('This product cannot be configured.', true);

    technique.addEventListener('change', function () {
      fillPositions();
      draw();
    });
    $('position').addEventListener('change', draw);
    variant.addEventListener('change', draw);
    $('scale').addEventListener('input', function (e) {
      state.placement.scale = Number(e.target.value) / 100;
      draw();
    });
    $('logo-file').addEventListener('change', function (e) {
      var file = e.target.files && e.target.files[0];
      if (file) uploadLogo(file);
    });
    $('template').addEventListener('load', draw);
    window.addEventListener('resize', draw);
    enableDragging();
    draw();
  }

  $('add-to-order').addEventListener('click', addToOrder);
  $('cancel').addEventListener('click', cancel);
  state.placement.scale = Number($('scale').value) / 100;

  var sku = params.get('sku');
  var ready = function () {
    post({ type: 'CONFIGURATOR_READY' });
  };
  if (!sku) {
    setStatus('No product given (parameter sku).', true);
    ready();
    return;
  }
  api('/api/configurator/' + encodeURIComponent(sku))
    .then(mount)
    .catch(function (err) {
      setStatus(err.message, true);
    })
    .then(ready);
})();
