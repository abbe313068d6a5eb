// The map on /app/map: shows the places of the visible area and reloads them, from the web
// server's /app/map/places.json, whenever the map stops moving; markers cluster at low zoom
// (leaflet.markercluster, when loaded). The list under the map follows the same places, so
// keyboard and screen-reader users get everything the markers show. The search box asks
// /app/map/search.json and moves the map; "Near me" asks the browser for its position and only
// moves the map (the position is never sent: only the map box, as for any move).
// Plain browser script (no build step); text goes into the page only as text, never as HTML.
(() => {
  const dataElement = document.getElementById('page-data');
  const mapElement = document.getElementById('map');
  if (!dataElement || !mapElement || typeof L === 'undefined') return;
  const data = JSON.parse(dataElement.textContent || '{}');
  const list = document.getElementById('place-list');
  const status = document.getElementById('map-status');
  const bboxInput = document.getElementById('filter-bbox');
  const moreLink = document.querySelector('a[href*="cursor="]');
  const heading = document.getElementById('places-heading');
  const areaNote = document.getElementById('map-area-text');
  const searchForm = document.getElementById('map-search');
  const searchInput = document.getElementById('map-near');
  const locateButton = document.getElementById('map-locate');
  const texts = data.texts || {};

  mapElement.hidden = false;
  const map = L.map(mapElement, { worldCopyJump: true });
  L.tileLayer(data.tileUrl, { attribution: escapeHtml(data.attribution || ''), maxZoom: 19 }).addTo(map);
  // Clusters at low zoom; one marker per place once zoomed in (or whenever the plugin is missing).
  const markers = (
    typeof L.markerClusterGroup === 'function'
      ? L.markerClusterGroup({ showCoverageOnHover: false, maxClusterRadius: 60, iconCreateFunction: clusterIcon })
      : L.layerGroup()
  ).addTo(map);

  const initial = parseBbox(data.bbox);
  if (initial) {
    map.fitBounds(initial);
  } else if (data.places && data.places.length > 0) {
    map.fitBounds(
      data.places.map((place) => [place.location.lat, place.location.lng]),
      { maxZoom: 13, padding: [24, 24] },
    );
  } else {
    map.setView([30, 10], 2);
  }

  let pending = null;
  let timer = null;
  map.on('moveend', () => {
    clearTimeout(timer);
    timer = setTimeout(load, 250);
  });
  load();

  async function load() {
    const bbox = currentBbox();
    if (bboxInput) bboxInput.value = bbox;
    const params = new URLSearchParams({ bbox });
    for (const key of ['type', 'veganLevel', 'q']) {
      if (data.filters?.[key]) params.set(key, data.filters[key]);
    }
    // Keep the area in the address, so reload, back and a shared link show the same place.
    // (Not the search that led here: once the map moved, the box is what the page shows.)
    const pageParams = new URLSearchParams(params);
    history.replaceState(null, '', `/app/map?${pageParams}`);
    if (pending) pending.abort();
    pending = new AbortController();
    try {
      const response = await fetch(`/app/map/places.json?${params}`, {
        signal: pending.signal,
        headers: { accept: 'application/json' },
        credentials: 'same-origin',
      });
      // The session ended: the server sent the browser to sign in; go there.
      if (response.redirected) {
        location.assign(response.url);
        return;
      }
      const body = await response.json();
      if (!response.ok) {
        setStatus(body.error ? body.error.message : texts.loadFailed);
        return;
      }
      show(body.items, body.summary);
      showArea(body);
    } catch (error) {
      if (error.name !== 'AbortError') setStatus(texts.loadFailed);
    }
  }

  function show(places, summary) {
    markers.clearLayers();
    for (const place of places) {
      const marker = L.marker([place.location.lat, place.location.lng], {
        title: place.name,
        alt: place.name,
        keyboard: true,
      });
      marker.bindPopup(() => popupFor(place));
      markers.addLayer(marker);
    }
    if (list) {
      list.replaceChildren(...places.map(listItemFor));
    }
    if (moreLink?.parentElement) moreLink.parentElement.hidden = true;
    // The server words the count in the viewer's language (plural rules included).
    setStatus(summary);
    nameClusters();
  }

  /** The area's name under the map and in the heading, as the server worded it. */
  function showArea(body) {
    if (heading && body.heading) heading.textContent = body.heading;
    if (areaNote && body.areaText) areaNote.textContent = body.areaText;
  }

  /** A cluster: the count as text, and a name saying what a click does. */
  function clusterIcon(cluster) {
    const count = cluster.getChildCount();
    const size = count < 10 ? 'small' : count < 100 ? 'medium' : 'large';
    const inner = document.createElement('div');
    const number = document.createElement('span');
    number.textContent = String(count);
    inner.append(number);
    return L.divIcon({ html: inner, className: `marker-cluster marker-cluster-${size}`, iconSize: L.point(40, 40) });
  }

  // Names the cluster icons once Leaflet made them (a div icon has no alt text of its own).
  markers.on('animationend', nameClusters);
  map.on('zoomend moveend', nameClusters);
  function nameClusters() {
    for (const element of mapElement.querySelectorAll('.marker-cluster')) {
      const count = element.textContent.trim();
      element.setAttribute('aria-label', format(texts.cluster, { count }));
      element.setAttribute('title', format(texts.cluster, { count }));
    }
  }

  if (searchForm && searchInput) {
    searchForm.addEventListener('submit', async (event) => {
      const query = searchInput.value.trim();
      if (!query) return;
      event.preventDefault();
      try {
        const response = await fetch(`/app/map/search.json?${new URLSearchParams({ q: query })}`, {
          headers: { accept: 'application/json' },
          credentials: 'same-origin',
        });
        if (response.redirected) {
          location.assign(response.url);
          return;
        }
        const body = await response.json();
        const target = body.cities?.[0] || body.places?.[0];
        if (!response.ok || !target) {
          setStatus(format(texts.notFound, { query }));
          return;
        }
        const box = parseBbox(target.bbox);
        if (box) map.fitBounds(box);
      } catch {
        // The plain form still works: let the server answer the search.
        searchForm.submit();
      }
    });
  }

  if (locateButton && 'geolocation' in navigator) {
    locateButton.hidden = false;
    const hint = document.getElementById('map-locate-hint');
    if (hint) hint.hidden = false;
    locateButton.addEventListener('click', () => {
      setStatus(texts.locating);
      navigator.geolocation.getCurrentPosition(
        (position) => map.setView([position.coords.latitude, position.coords.longitude], 13),
        () => setStatus(texts.locateFailed),
        { enableHighAccuracy: false, timeout: 15000, maximumAge: 600000 },
      );
    });
  }

  /** Fills {name} placeholders of a text the page gave (already in the viewer's language). */
  function format(text, values) {
    return String(text || '').replace(/\{(\w+)\}/g, (whole, name) => (name in values ? values[name] : whole));
  }

  function setStatus(text) {
    if (status) status.textContent = text;
  }

  function placeLink(place) {
    const link = document.createElement('a');
    link.href = `/app/places/${encodeURIComponent(place.slug)}`;
    link.textContent = place.name;
    return link;
  }

  function popupFor(place) {
    const box = document.createElement('div');
    const title = document.createElement('strong');
    title.append(placeLink(place));
    const details = document.createElement('div');
    details.textContent = `${place.type} · ${place.veganLevel}`;
    const address = document.createElement('div');
    address.textContent = place.address;
    box.append(title, details, address);
    return box;
  }

  function listItemFor(place) {
    const item = document.createElement('li');
    item.className = 'card';
    const details = document.createElement('span');
    details.className = 'muted';
    details.textContent = ` · ${place.type} · ${place.veganLevel}`;
    const address = document.createElement('span');
    address.className = 'muted';
    address.textContent = place.address;
    item.append(placeLink(place), details, document.createElement('br'), address);
    return item;
  }

  /** The visible area as the API's bbox: longitudes wrapped into −180..180 (west > east crosses the antimeridian). */
  function currentBbox() {
    const bounds = map.getBounds();
    let west = bounds.getWest();
    let east = bounds.getEast();
    const south = Math.max(-90, bounds.getSouth());
    const north = Math.min(90, bounds.getNorth());
    if (east - west >= 360) {
      west = -180;
      east = 180;
    } else {
      west = wrapLongitude(west);
      east = wrapLongitude(east);
      if (east === -180) east = 180;
    }
    return [west, south, east, north].map((n) => Number(n.toFixed(5))).join(',');
  }

  function wrapLongitude(lng) {
    return ((((lng + 180) % 360) + 360) % 360) - 180;
  }

  function parseBbox(text) {
    if (!text) return null;
    const parts = String(text).split(',').map(Number);
    if (parts.length !== 4 || parts.some((n) => !Number.isFinite(n))) return null;
    const [west, south, east, north] = parts;
    return [
      [south, west],
      [north, east < west ? east + 360 : east],
    ];
  }

  function escapeHtml(text) {
    const span = document.createElement('span');
    span.textContent = text;
    return span.innerHTML;
  }
})();
