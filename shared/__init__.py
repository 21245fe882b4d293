"""Code shared by the Swick Online services: game engines, message models and the bus."""
