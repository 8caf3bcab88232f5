package missed
