// A minimal webshop integration of the logo modal, as spec 3 describes it: preflight with
// config-check, open the modal in an iframe with URL parameters, accept messages only from the
// modal's origin, add the item on SERVICE_LOGO_ADD_TO_ORDER, close on CLOSE_MODAL.
(function () {
  'use strict';
  var query = new URLSearchParams(location.search);
  // Where the modal and its API live; by default this page's own origin (the modal host).
  var modalBase = (query.get('modal') || location.origin).replace(/\/$/, '');
  var modalOrigin = new URL(modalBase).origin;
  var callbackUrl = query.get('callback');
  var events = (window.demoEvents = []);
  var overlay = null;

  function log(data) {
    events.push(data);
    document.getElementById('events').textContent += JSON.stringify(data) + '\n';
  }

  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return 'xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx'.replace(/x/g, function () {
      return ((Math.random() * 16) | 0).toString(16);
    });
  }
  var basketId = uuid();

  function openModal(sku, quantity) {
    var p = new URLSearchParams({
      sku: sku,
      quantity: String(quantity),
      basket_id: basketId,
      customer_id: 'demo-customer-1',
      source: 'demo-shop',
    });
    if (callbackUrl) p.set('callback_url', callbackUrl);
    if (query.get('technique')) p.set('technique', query.get('technique'));
    if (query.get('color')) p.set('color', query.get('color'));
    overlay = document.createElement('div');
    overlay.className = 'overlay';
    var frame = document.createElement('iframe');
    frame.id = 'logo-modal';
    frame.title = 'Logo configurator';
    frame.src = modalBase + '/modal/?' + p.toString();
    overlay.appendChild(frame);
    document.body.appendChild(overlay);
  }

  function closeModal() {
    if (overlay) overlay.remove();
    overlay = null;
  }

  function addToCart(m) {
    var empty = document.getElementById('cart-empty');
    if (empty) empty.remove();
    var item = document.createElement('div');
    item.className = 'cart-item';
    item.dataset.transactionId = m.transactionId;
    var zip = m.downloadZipUrl || m.filesUrl.replace(/\/files$/, '/download-zip');
    item.innerHTML =
      '<img alt="Preview">' +
      '<p><strong></strong></p><p class="muted details"></p>' +
      '<p><a class="pdf" target="_blank">Proof PDF</a> &middot; <a class="files" target="_blank">Files</a> &middot; <a class="zip">Download ZIP</a></p>';
    item.querySelector('img').src = m.screenshotUrl;
    item.querySelector('strong').textContent = m.quantity + ' x ' + m.variantSku;
    item.querySelector('.details').textContent =
      m.techniqueName + ', ' + m.printArea + ' mm' + (m.selectedColor ? ', ' + m.selectedColor : '');
    item.querySelector('.pdf').href = m.pdfUrl;
    item.querySelector('.files').href = m.filesUrl.replace(/\/files$/, '/modal');
    item.querySelector('.zip').href = zip;
    document.getElementById('cart').appendChild(item);
  }

  window.addEventListener('message', function (event) {
    // Spec 3: accept messages only from the modal's origin.
    if (event.origin !== modalOrigin) return;
    var m = event.data || {};
    log(m);
    if (m.type === 'SERVICE_LOGO_ADD_TO_ORDER') addToCart(m);
    if (m.type === 'CLOSE_MODAL') closeModal();
  });

  document.querySelectorAll('.card').forEach(function (card) {
    var sku = card.dataset.sku;
    var check = card.querySelector('.check');
    fetch(modalBase + '/api/config-check/' + encodeURIComponent(sku))
      .then(function (res) {
        return res.json();
      })
      .then(function (result) {
        card.dataset.available = String(result.available);
        if (!result.available) {
          check.textContent = 'No logo printing available for this product.';
          return;
        }
        check.textContent =
          'Techniques: ' +
          result.techniques
            .map(function (t) {
              return t.name + ' (' + t.print_area + ' mm)';
            })
            .join(', ');
        var button = document.createElement('button');
        button.className = 'customize';
        button.textContent = 'Customize with your logo';
        button.addEventListener('click', function () {
          openModal(sku, Number(card.querySelector('.qty').value) || 1);
        });
        card.appendChild(button);
      })
      .catch(function () {
        check.textContent = 'Configurator unavailable.';
      });
  });
})();
