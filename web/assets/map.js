// The map on /app/map: shows the places of the visible area and reloads them, from the web
// server's /app/map/places.json, whenever the map stops moving. The list under the map follows
// the same places, so keyboard and screen-reader users get everything the markers show.
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

  mapElement.hidden = false;
  const map = L.map(mapElement, { worldCopyJump: true });
  L.tileLayer(data.tileUrl, { attribution: escapeHtml(data.attribution || ''), maxZoom: 19 }).addTo(map);
  const markers = L.layerGroup().addTo(map);

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
        setStatus(body.error ? body.error.message : 'The places could not be loaded.');
        return;
      }
      show(body.items, body.nextCursor);
    } catch (error) {
      if (error.name !== 'AbortError') setStatus('The places could not be loaded. Move the map to try again.');
    }
  }

  function show(places, nextCursor) {
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
    const count = places.length;
    setStatus(
      count === 0
        ? 'No places found here.'
        : `${count} ${count === 1 ? 'place' : 'places'} shown${nextCursor ? '; zoom in to see more' : ''}.`,
    );
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
